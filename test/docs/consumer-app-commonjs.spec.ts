/**
 * The testing README's Jest route, which it gives for CommonJS apps (no "type": "module"): a CommonJS
 * NestJS 12 app with Jest, hand-written in the shape `nest new` made before version 12
 * (scaffoldCommonJsNestApp; today's `nest new` makes an ES-module app with Vitest, tested in
 * consumer-app.spec.ts), follows libs/partner-payments/README.md's install section as written, compiles
 * with strict tsc, boots against `npx partner-sandbox` (Node loads NestJS 12's ES modules from CommonJS
 * with require), then runs the e2e test the testing package ships, copied as
 * libs/partner-payments-testing/README.md says, with that README's jest.config.js (the shipped preset)
 * and its command.
 * KEEP_CONSUMER_APP=1 keeps the folder for a look afterwards.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  bootAgainstSandboxCli,
  commands,
  compileAndBuild,
  copyE2eTest,
  engineWarnings,
  files,
  followModuleReadme,
  step,
  TESTING_README,
  testNames,
  writeFiles,
} from './consumer-app.fixture';
import { scaffoldCommonJsNestApp, scratchApp } from './scratch-apps.fixture';
import { run } from './scratch-commands.fixture';
import { readBlocks } from './readme-blocks.fixture';

const testingBlocks = readBlocks(TESTING_README);

let app = '';
let installOutput = '';
let copied = '';

describe('a CommonJS Nest app with Jest following the READMEs (tarballs, strict tsc, the Jest preset)', () => {
  const { tarballs, processes, makeFolder } = scratchApp('consumer-app-commonjs-');
  beforeAll(() => {
    app = makeFolder();
    scaffoldCommonJsNestApp(app);
    installOutput = followModuleReadme(app, tarballs);
    copied = copyE2eTest(app);
    writeFiles(app, files(testingBlocks));
  }, 600000);

  it('the testing README gives the Jest route its config file and its command', () => {
    expect(files(testingBlocks).map((f) => f.path)).toEqual(['jest.config.js']);
    expect(commands(step(testingBlocks, 'run-e2e-jest'))).toEqual([['npx', 'jest']]);
    expect(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))).not.toHaveProperty('type');
  });

  it('installs without engine warnings', () => {
    expect(engineWarnings(installOutput)).toEqual([]);
  });

  it('compiles with strict tsc (the app and the copied e2e test), builds, boots against `npx partner-sandbox` and handles the signed webhook', async () => {
    expect(compileAndBuild(app)).toBe(true);
    await bootAgainstSandboxCli(app, processes);
  }, 180000);

  it('exposes the preset and the transformer under the entry points the README names', () => {
    const probe = `const preset = require('@partner-payments/testing/jest-preset');
      const transformer = require.resolve('@partner-payments/testing/jest/esm-to-cjs');
      console.log(JSON.stringify([Object.keys(preset.transform), preset.transform['^.+\\\\.js$'] === transformer]));`;
    expect(run(app, process.execPath, ['-e', probe]).output.trim()).toBe(
      '[["^.+\\\\.ts$","^.+\\\\.js$"],true]',
    );
  });

  it('runs the copied e2e test with the shipped Jest preset and the command the README gives', () => {
    const [command] = commands(step(testingBlocks, 'run-e2e-jest'));
    const { output } = run(app, command[0], command.slice(1), 180000);
    const names = testNames(readFileSync(join(app, copied), 'utf8'));
    expect(names.length).toBeGreaterThanOrEqual(2);
    // One test file: Jest lists each test by name.
    for (const name of names) expect(output).toContain(name);
    expect(output).toContain(copied);
    expect(output).toMatch(new RegExp(`Tests:\\s+${names.length} passed, ${names.length} total`));
    expect(output).not.toMatch(/ts-jest\[[^\]]+\] \(WARN\)/);
  }, 200000);
});
