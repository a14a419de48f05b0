// The build refuses infrastructure imports from pure domain code (STYLE.md item 10), and imports
// against the package graph below. Pure code lives in libs/contracts, libs/config and in every
// `domain/` folder of a context lib.
const infrastructure = 'node_modules/(@nestjs|typeorm|kafkajs|pg|fastify|@fastify)/';

// The package graph reads top-down; each layer imports only the layers below it:
//
//   apps/*                                          one process each; never another app
//   libs/projections                                the projector's read models as one unit (composes contexts)
//   libs/auth cells identity ingest scoring tenancy bench the bounded contexts; auth below identity
//   libs/dev-oidc console-server                    the consoles' servers: a development identity provider
//                                                   (on auth's dev issuer keys) and the SPA, its settings, its proxy
//   libs/http  libs/kafka  libs/db                  infrastructure: none imports another
//   libs/contracts  libs/config                     pure: events, payloads, environment validators
//
// The three infrastructure libs are siblings, not a stack: what an app needs from two of them at once
// (its /ready checks, its settings) the app composes, so a web-only or database-only process
// never drags a broker client in. libs/testing and test/ assemble whole stacks and may import
// anything; so may the spec files next to the code, which are tests, not part of the graph they test.
const foundation = '^libs/(contracts|config)/';
const infrastructureLibs = '^libs/(http|kafka|db)/';
const contexts = '^libs/(auth|cells|identity|ingest|scoring|tenancy|bench|dev-oidc|console-server)/';
const composition = '^libs/projections/';
const tests = '\\.(int-|e2e-)?spec\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'Domain code (contracts, config, */domain/*) must not import Nest, TypeORM, kafkajs, pg or Fastify.',
      severity: 'error',
      from: { path: '(^libs/(contracts|config)/src/)|(/domain/)' },
      to: { path: infrastructure },
    },
    {
      name: 'kafkajs-only-in-libs-kafka',
      comment: 'libs/kafka is the only code that imports kafkajs (DESIGN.md §2).',
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: `^libs/kafka/|^libs/testing/|${tests}` },
      to: { path: 'node_modules/kafkajs/' },
    },
    {
      name: 'foundation-imports-nothing-of-ours',
      comment:
        'libs/contracts and libs/config are the bottom layer every other package builds on: they import no other package of ours (libs/config may not even import contracts).',
      severity: 'error',
      from: { path: foundation, pathNot: tests },
      to: { path: '^(apps|libs|test)/', pathNot: '^libs/contracts/|^libs/$1/' },
    },
    {
      name: 'config-is-independent',
      comment: 'libs/config validates environment variables; it knows no event or payload (contracts).',
      severity: 'error',
      from: { path: '^libs/config/', pathNot: tests },
      to: { path: '^libs/contracts/' },
    },
    {
      name: 'infrastructure-imports-only-foundation',
      comment:
        'http, kafka and db import only contracts and config: not each other (an app composes what it needs from two of them), and nothing above them.',
      severity: 'error',
      from: { path: infrastructureLibs, pathNot: tests },
      to: { path: '^(apps|libs|test)/', pathNot: `${foundation}|^libs/$1/` },
    },
    {
      name: 'contexts-import-no-composition-or-app',
      comment:
        'A context lib builds on infrastructure and foundation (and on another context it needs, acyclically); the layers above compose contexts, never the other way round.',
      severity: 'error',
      from: { path: contexts, pathNot: tests },
      to: { path: `^apps/|^test/|^libs/testing/|${composition}` },
    },
    {
      name: 'auth-below-identity',
      comment:
        "libs/auth verifies credentials; libs/identity issues them (organizations, deploy tokens, machines, API keys) behind auth's guards. " +
        "Verification reads what it needs (a token hash, an organization's existence) itself, so every guarded context can import auth without the identity routes.",
      severity: 'error',
      from: { path: '^libs/auth/' },
      to: { path: '^libs/identity/' },
    },
    {
      name: 'composition-imports-no-app',
      comment: 'libs/projections is shared by the projector app and the CLI: it may not depend on either.',
      severity: 'error',
      from: { path: composition, pathNot: tests },
      to: { path: '^apps/|^test/|^libs/testing/' },
    },
    {
      name: 'no-app-imports-another-app',
      comment:
        'Apps are separate processes and deployables; what two of them share is a lib (the CLI rebuilds projections through libs/projections, not the projector app).',
      severity: 'error',
      from: { path: '^apps/([^/]+)/', pathNot: tests },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'production-code-imports-no-test-code',
      comment: 'libs/testing and test/ assemble stacks for tests; nothing that ships may depend on them.',
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: `^libs/testing/|${tests}` },
      to: { path: '^libs/testing/|^test/' },
    },
    {
      name: 'consoles-ship-apart',
      comment:
        'The product console goes to customers and the operator console stays internal: neither imports the other (what both need is in web/shared, which imports neither).',
      severity: 'error',
      from: { path: '^web/(product-console|operator-console|shared)/' },
      to: { path: '^web/(product-console|operator-console)/', pathNot: '^web/$1/' },
    },
    {
      name: 'browser-code-imports-no-server-code',
      comment:
        'The consoles talk to the APIs over HTTP through the generated clients (web/api), never by importing server code.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(apps|libs|test)/' },
    },
    {
      name: 'no-circular',
      comment:
        'A cycle between modules makes their load order, and so their initialization, depend on who imports first.',
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
