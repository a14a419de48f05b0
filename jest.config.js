// Three projects: unit (pure, no services), integration (real Postgres and/or Kafka), e2e (black box over HTTP).
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

// ESM-only packages reached through Nest's Swagger UI (@fastify/static): transpiled to CommonJS for jest.
const esmOnly = ['content-disposition'];

const shared = {
  testEnvironment: 'node',
  rootDir: __dirname,
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  // Transpile only (tsconfig.jest.json sets isolatedModules): type checking is `npm run typecheck`'s job.
  transform: { '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }] },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
};

module.exports = {
  testTimeout: 120_000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts', '<rootDir>/web/**/*.spec.ts'] },
    { ...shared, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs}/**/*.int-spec.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
    // Tests that take shared infrastructure down or compare latencies: npm test runs them alone, after the rest.
    { ...shared, displayName: 'faults', testMatch: ['<rootDir>/test/faults/**/*.fault-spec.ts'] },
  ],
};
