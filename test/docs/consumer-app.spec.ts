/**
 * A new user's integration, end to end, as CI can check it: an app made by the real `nest new`
 * (NEST_CLI in consumer-app.fixture.ts, pinned: ES modules, Vitest, strict TypeScript), installed as
 * the CLI would, in a temp folder, follows libs/partner-payments/README.md's install section as
 * written: its package.json step, its `npm install` lines (with the tarballs packed by
 * pack.global-setup.ts in place of `<path-to-this-repo>`), its files and the shipped `.env`. It
 * compiles with the app's own tsconfig.json and `npm run build`, boots against `npx partner-sandbox`,
 * makes a call, and receives the signed webhook in its @OnPartnerEvent handler. Then the e2e test the
 * testing package ships, copied as libs/partner-payments-testing/README.md says, runs with the command
 * that README gives (`npm run test:e2e`, the app's Vitest e2e config), next to the app's own test.
 * The README's Jest route (CommonJS apps) is consumer-app-commonjs.spec.ts.
 * KEEP_CONSUMER_APP=1 keeps the folder for a look afterwards.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  bootAgainstSandboxCli,
  commands,
  compileAndBuild,
  copyE2eTest,
  engineWarnings,
  files,
  followModuleReadme,
  MODULE_README,
  npmInstall,
  step,
  TESTING_README,
  testNames,
} from './consumer-app.fixture';
import { nestNew, scratchApp } from './scratch-apps.fixture';
import { run } from './scratch-commands.fixture';
import { readBlocks } from './readme-blocks.fixture';

const moduleBlocks = readBlocks(MODULE_README);
const testingBlocks = readBlocks(TESTING_README);

// The escape sequences of a colouring runner (NO_COLOR is set, but not every tool reads it).
const plain = (output: string) => output.replace(/\u001b\[[0-9;]*m/g, '');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let app = '';
let baselineInstall = '';
let readmeInstall = '';
let copied = '';
let ownE2eTest = '';

describe('an app made by `nest new` following the READMEs (tarballs, its own tsc and Vitest, the sandbox CLI)', () => {
  const { tarballs, processes, makeFolder } = scratchApp('consumer-app-');
  beforeAll(() => {
    app = nestNew(makeFolder(), 'consumer-app');
    // What `nest new` does when not told --skip-install: the app as its user has it.
    baselineInstall = npmInstall(app);
    ownE2eTest = readFileSync(join(app, 'test/app.e2e-spec.ts'), 'utf8');
    readmeInstall = followModuleReadme(app, tarballs);
    copied = copyE2eTest(app);
  }, 900000);

  it('is what `nest new` makes today: ES modules, Vitest, strict TypeScript', () => {
    const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as {
      type?: string;
      scripts: Record<string, string>;
    };
    expect(pkg.type).toBe('module');
    expect(pkg.scripts['test:e2e']).toMatch(/^vitest run --config \.\/vitest\.config\.e2e\.ts$/);
    const tsconfig = readFileSync(join(app, 'tsconfig.json'), 'utf8');
    expect(tsconfig).toMatch(/"module": "nodenext"/);
    expect(tsconfig).toMatch(/"strict": true/);
    expect(tsconfig).toMatch(/"vitest\/globals"/);
  });

  it('the READMEs name the steps this test takes', () => {
    const moduleReadme = readFileSync(join(__dirname, '../..', MODULE_README), 'utf8');
    expect(moduleReadme).toContain('cp node_modules/@partner-payments/testing/examples/sandbox.env .env');
    expect(moduleReadme).toContain('npx partner-sandbox');
    const install = step(moduleBlocks, 'install');
    expect(install.code).toContain('npm pack -w @partner-payments/nestjs -w @partner-payments/testing');
    // A placeholder the reader fills in, not a guess at where the repository sits next to the app.
    expect(install.code).toMatch(/<path-to-this-repo>\/partner-payments-nestjs-0\.1\.0\.tgz/);
    expect(install.code).toMatch(/<path-to-this-repo>\/partner-payments-testing-0\.1\.0\.tgz/);
    expect(files(moduleBlocks).map((f) => f.path)).toEqual(
      expect.arrayContaining(['src/app.module.ts', 'src/main.ts']),
    );
    // The copy leaves the app's own e2e test as `nest new` made it.
    expect(copied).not.toBe('test/app.e2e-spec.ts');
    expect(readFileSync(join(app, 'test/app.e2e-spec.ts'), 'utf8')).toBe(ownE2eTest);
    expect(commands(step(testingBlocks, 'run-e2e-vitest'))).toEqual([['npm', 'run', 'test:e2e']]);
  });

  it("installs without engine warnings of its own (the app's are the Nest CLI's) and ships no build info", () => {
    const before = engineWarnings(baselineInstall);
    const after = engineWarnings(readmeInstall);
    expect(after.filter((p) => !before.includes(p))).toEqual([]);
    expect(existsSync(join(app, 'node_modules/@partner-payments/nestjs/dist/index.js'))).toBe(true);
    expect(existsSync(join(app, 'node_modules/@partner-payments/nestjs/dist/.tsbuildinfo'))).toBe(false);
    expect(existsSync(join(app, 'node_modules/@partner-payments/testing/dist/.tsbuildinfo'))).toBe(false);
    // One file-type for @nestjs/common's FileTypeValidator and the module's upload sniffing: the
    // release with the fix for CVE-2026-31808, still detecting types by magic number.
    const check = `import('@nestjs/common').then(async ({ FileTypeValidator }) => {
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
      const valid = new FileTypeValidator({ fileType: 'image/png' });
      const file = { mimetype: 'image/png', buffer: png };
      const liar = { mimetype: 'image/png', buffer: Buffer.from('%PDF-1.7 not a png') };
      console.log(JSON.stringify([await valid.isValid(file), await valid.isValid(liar)]));
    })`;
    expect(run(app, process.execPath, ['-e', check]).output.trim()).toBe('[true,false]');
    expect(existsSync(join(app, 'node_modules/@nestjs/common/node_modules/file-type'))).toBe(false);
    const fileType = JSON.parse(readFileSync(join(app, 'node_modules/file-type/package.json'), 'utf8')) as {
      version: string;
    };
    expect(Number(fileType.version.split('.')[0])).toBeGreaterThanOrEqual(22);
  });

  it("compiles with the app's own tsconfig.json (the app, its tests and the copied one), then `npm run build`", () => {
    expect(compileAndBuild(app)).toBe(true);
  }, 180000);

  it('boots against `npx partner-sandbox`, calls the partner, and handles the signed webhook', async () => {
    await bootAgainstSandboxCli(app, processes);
  }, 60000);

  it("runs the copied e2e test with the command the testing README gives, next to the app's own", () => {
    const [command] = commands(step(testingBlocks, 'run-e2e-vitest'));
    const output = plain(run(app, command[0], command.slice(1), 180000).output);
    const ours = testNames(readFileSync(join(app, copied), 'utf8')).length;
    const theirs = testNames(ownE2eTest).length;
    expect(ours).toBeGreaterThanOrEqual(2);
    expect(theirs).toBeGreaterThanOrEqual(1);
    // Vitest's line per file: `✓ test/partner-sandbox.e2e-spec.ts (2 tests) 759ms`.
    expect(output).toMatch(new RegExp(`✓ ${escape(copied)} \\(${ours} tests?\\)`));
    expect(output).toMatch(new RegExp(`✓ test/app\\.e2e-spec\\.ts \\(${theirs} tests?\\)`));
    expect(output).toMatch(new RegExp(`Tests\\s+${ours + theirs} passed \\(${ours + theirs}\\)`));
  }, 200000);

  it("leaves the app's unit tests (`npm test`) as they were: they pass and do not take the e2e test", () => {
    const output = plain(run(app, 'npm', ['test'], 120000).output);
    expect(output).toMatch(/Tests\s+\d+ passed/);
    expect(output).not.toContain(copied);
  }, 150000);
});
