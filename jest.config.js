/**
 * Four projects: `unit` (specs beside the source), `e2e` (suites under test/ that boot real
 * servers on real sockets, a real SQLite file and a throwaway PostgreSQL), `docs` (test/docs:
 * the READMEs' code compiles; a scratch consumer app installs the packed packages and runs) and
 * `limits` (test/limits: CONTRIBUTING's naming and limits on the repository's files).
 * Package names map to the sources so tests never run against a stale dist/.
 */
const {
  ESM_PACKAGES,
  esmIgnorePattern,
} = require('./libs/partner-payments-testing/src/jest/esm-packages.js');

const moduleNameMapper = {
  '^@partner-payments/nestjs$': '<rootDir>/libs/partner-payments/src/index.ts',
  '^@partner-payments/nestjs/models$': '<rootDir>/libs/partner-payments/src/models.ts',
  '^@partner-payments/nestjs/errors$': '<rootDir>/libs/partner-payments/src/errors.ts',
  '^@partner-payments/nestjs/webhooks$': '<rootDir>/libs/partner-payments/src/webhooks.ts',
  '^@partner-payments/nestjs/inbox$': '<rootDir>/libs/partner-payments/src/inbox.ts',
  '^@partner-payments/nestjs/transport$': '<rootDir>/libs/partner-payments/src/transport.ts',
  '^@partner-payments/nestjs/observability$': '<rootDir>/libs/partner-payments/src/observability.ts',
  '^@partner-payments/testing$': '<rootDir>/libs/partner-payments-testing/src/index.ts',
  '^@partner-payments/typeorm$': '<rootDir>/libs/partner-payments-typeorm/src/index.ts',
  '^@partner-payments/typeorm/sql$': '<rootDir>/libs/partner-payments-typeorm/src/sql.ts',
};
const transform = {
  // isolatedModules comes from tsconfig.jest.json (ts-jest's own option of that name is deprecated).
  '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
  // NestJS 12 and file-type ship ESM only ("type": "module") and Jest's CommonJS runtime cannot load
  // them (except on Node 24.9+ with --experimental-vm-modules): those packages' .js files are
  // transpiled to CommonJS by the transformer the testing package ships to its users (one copy: the
  // preset `@partner-payments/testing` uses the same file).
  '^.+\\.js$': '<rootDir>/libs/partner-payments-testing/src/jest/esm-to-cjs.transformer.js',
};
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  transform,
  // The preset's ESM-only packages (NestJS, file-type and its parts); the OpenAPI validator of the
  // app's suite (ESM only); and @opentelemetry/otlp-exporter-base (CommonJS), which loads node:http
  // with a dynamic import() that Jest's vm runtime refuses without --experimental-vm-modules;
  // transpiled, it becomes require().
  transformIgnorePatterns: [
    esmIgnorePattern([
      ...ESM_PACKAGES,
      '@seriousme/openapi-schema-validator',
      '@opentelemetry/otlp-exporter-base',
    ]),
  ],
};

module.exports = {
  // Jest 30 reads testTimeout from the top level, not per project: e2e suites boot servers and databases.
  testTimeout: 60000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/libs/*/src/**/*.spec.ts', '<rootDir>/apps/*/src/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/setup/e2e.global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/e2e.global-teardown.ts',
    },
    {
      // The READMEs kept true: every TypeScript block compiles, and a scratch app built from the
      // install section works end to end with the packed tarballs (the global setup packs them).
      ...common,
      displayName: 'docs',
      testMatch: ['<rootDir>/test/docs/**/*.spec.ts'],
      globalSetup: '<rootDir>/test/docs/pack.global-setup.ts',
      globalTeardown: '<rootDir>/test/docs/pack.global-teardown.ts',
    },
    {
      // No global setup: it reads the files git tracks, in a few seconds.
      ...common,
      displayName: 'limits',
      testMatch: ['<rootDir>/test/limits/**/*.spec.ts'],
    },
  ],
};
