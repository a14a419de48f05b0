// The build refuses infrastructure imports from pure domain code (STYLE.md item 10).
// Pure code lives in libs/contracts and in every `domain/` folder of a context lib.
const infrastructure = 'node_modules/(@nestjs|typeorm|kafkajs|pg|fastify|@fastify)/';

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'Domain code (contracts, */domain/*) must not import Nest, TypeORM, kafkajs, pg or Fastify.',
      severity: 'error',
      from: { path: '(^libs/contracts/src/)|(/domain/)' },
      to: { path: infrastructure },
    },
    {
      name: 'kafkajs-only-in-libs-kafka',
      comment: 'libs/kafka is the only code that imports kafkajs (DESIGN.md §2).',
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: '^libs/kafka/|^libs/testing/|\\.(int-|e2e-)?spec\\.ts$' },
      to: { path: 'node_modules/kafkajs/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '(^|/)(dist|\\.local)/' },
  },
};
