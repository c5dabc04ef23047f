/**
 * Two projects: `unit` (specs beside the source) and `e2e` (suites under test/ that boot real
 * servers on real sockets, a real SQLite file and a throwaway PostgreSQL).
 * Package names map to the sources so tests never run against a stale dist/.
 */
const moduleNameMapper = {
  '^@partner-payments/nestjs$': '<rootDir>/libs/partner-payments/src/index.ts',
  '^@partner-payments/testing$': '<rootDir>/libs/partner-payments-testing/src/index.ts',
};
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', isolatedModules: true }],
  // NestJS 12 ships ESM only ("type": "module"); Jest's CommonJS runtime cannot require(esm) before
  // Node 24.9, so those packages' .js files are transpiled to CommonJS for the tests.
  '^.+\\.js$': '<rootDir>/test/setup/esm-to-cjs.transformer.js',
};
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  transform,
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs)/)'],
};

module.exports = {
  // Jest 30 reads testTimeout from the top level, not per project: e2e suites boot servers and databases.
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/libs/*/src/**/*.spec.ts', '<rootDir>/apps/*/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
  ],
};
