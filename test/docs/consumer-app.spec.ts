/**
 * A new user's integration, end to end, as CI can check it: a scratch NestJS 12 app (what `nest new`
 * makes, strict TypeScript) in a temp folder follows libs/partner-payments/README.md's install
 * section: its package.json step and `npm install` lines (with the tarballs packed by
 * pack.global-setup.ts), its files (src/*.ts) and the shipped `.env`; it compiles with strict tsc,
 * boots against `npx partner-sandbox`, makes a call, and receives the signed webhook in its
 * @OnPartnerEvent handler. Then the app's own e2e test, the recipe the testing package ships, runs
 * with the shipped Jest preset (libs/partner-payments-testing/README.md's jest.config.js), and with
 * Vitest as that README sets it up.
 * KEEP_CONSUMER_APP=1 keeps the folder for a look afterwards.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import {
  cleanEnv,
  merge,
  run,
  scaffoldNestApp,
  start,
  writeJson,
  type Started,
} from './consumer-app.fixture';
import { readBlocks, type ReadmeBlock } from './readme-blocks.fixture';

const MODULE_README = 'libs/partner-payments/README.md';
const TESTING_README = 'libs/partner-payments-testing/README.md';
const moduleBlocks = readBlocks(MODULE_README);
const testingBlocks = readBlocks(TESTING_README);

const step = (blocks: ReadmeBlock[], name: string): ReadmeBlock => {
  const found = blocks.filter((b) => b.role.kind === 'consumer-app' && b.role.step === name);
  if (found.length !== 1)
    throw new Error(`expected one <!-- consumer-app: ${name} --> block, found ${found.length}`);
  return found[0];
};
const files = (blocks: ReadmeBlock[]) =>
  blocks.flatMap((b) => (b.role.kind === 'file' ? [{ path: b.role.path, code: b.code }] : []));

/** The README's `npm install` lines, tarball paths pointed at the packed ones. */
function installCommands(block: ReadmeBlock, tarballs: string): string[][] {
  return block.code
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => /^npm (install|i)\b/.test(line))
    .map((line) =>
      line
        .split(/\s+/)
        .slice(1)
        .map((arg) => (arg.endsWith('.tgz') ? join(tarballs, basename(arg)) : arg)),
    );
}

const tarballs = process.env.PARTNER_PAYMENTS_TARBALLS ?? '';
let app = '';
let installOutput = '';
const processes: Started[] = [];

describe('a NestJS app following the package README (tarballs, strict tsc, the sandbox CLI)', () => {
  beforeAll(() => {
    if (!tarballs || !existsSync(tarballs))
      throw new Error('PARTNER_PAYMENTS_TARBALLS unset: run through the docs Jest project');
    app = mkdtempSync(join(tmpdir(), 'consumer-app-'));
    scaffoldNestApp(app);
    // The README's package.json step (the Node 20 override), then its install lines as written.
    const pkgPath = join(app, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as Record<string, unknown>;
    writeJson(
      pkgPath,
      merge(pkg, JSON.parse(step(moduleBlocks, 'package.json').code) as Record<string, unknown>),
    );
    const commands = installCommands(step(moduleBlocks, 'install'), tarballs);
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const args of commands) {
      for (const tgz of args.filter((a) => a.endsWith('.tgz'))) expect(existsSync(tgz)).toBe(true);
      installOutput += run(
        app,
        'npm',
        ['install', ...args.slice(1), '--prefer-offline', '--no-audit', '--no-fund'],
        240000,
      ).output;
    }
    // The README's files, the .env and the e2e recipe the testing package ships.
    for (const file of [...files(moduleBlocks), ...files(testingBlocks)]) {
      mkdirSync(dirname(join(app, file.path)), { recursive: true });
      writeFileSync(join(app, file.path), file.code);
    }
    const examples = join(app, 'node_modules/@partner-payments/testing/examples');
    copyFileSync(join(examples, 'sandbox.env'), join(app, '.env'));
    mkdirSync(join(app, 'test'), { recursive: true });
    copyFileSync(join(examples, 'app.e2e-spec.ts'), join(app, 'test/app.e2e-spec.ts'));
  }, 420000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    if (app && !process.env.KEEP_CONSUMER_APP) rmSync(app, { recursive: true, force: true });
  });

  it('the READMEs name the steps this test takes', () => {
    const moduleReadme = readFileSync(join(__dirname, '../..', MODULE_README), 'utf8');
    const testingReadme = readFileSync(join(__dirname, '../..', TESTING_README), 'utf8');
    expect(moduleReadme).toContain('cp node_modules/@partner-payments/testing/examples/sandbox.env .env');
    expect(moduleReadme).toContain('npx partner-sandbox');
    expect(testingReadme).toContain(
      'cp node_modules/@partner-payments/testing/examples/app.e2e-spec.ts test/',
    );
    expect(step(moduleBlocks, 'install').code).toContain(
      'npm pack -w @partner-payments/nestjs -w @partner-payments/testing',
    );
    expect(files(moduleBlocks).map((f) => f.path)).toEqual(
      expect.arrayContaining(['src/app.module.ts', 'src/main.ts']),
    );
    expect(files(testingBlocks).map((f) => f.path)).toEqual(
      expect.arrayContaining(['jest.config.js', 'vitest.config.mjs']),
    );
  });

  it('installs without engine warnings and ships no build info', () => {
    expect(installOutput).not.toMatch(/EBADENGINE/);
    expect(existsSync(join(app, 'node_modules/@partner-payments/nestjs/dist/index.js'))).toBe(true);
    expect(existsSync(join(app, 'node_modules/@partner-payments/nestjs/dist/.tsbuildinfo'))).toBe(false);
    expect(existsSync(join(app, 'node_modules/@partner-payments/testing/dist/.tsbuildinfo'))).toBe(false);
    // The override's point: @nestjs/common's FileTypeValidator still detects types by magic number.
    const check = `import('@nestjs/common').then(async ({ FileTypeValidator }) => {
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
      const valid = new FileTypeValidator({ fileType: 'image/png' });
      const file = { mimetype: 'image/png', buffer: png };
      const liar = { mimetype: 'image/png', buffer: Buffer.from('%PDF-1.7 not a png') };
      console.log(JSON.stringify([await valid.isValid(file), await valid.isValid(liar)]));
    })`;
    expect(run(app, process.execPath, ['-e', check]).output.trim()).toBe('[true,false]');
    // Where npm put the version @nestjs/common gets: nested under it, or hoisted.
    const nested = join(app, 'node_modules/@nestjs/common/node_modules/file-type/package.json');
    const fileTypePkg = existsSync(nested) ? nested : join(app, 'node_modules/file-type/package.json');
    const fileType = JSON.parse(readFileSync(fileTypePkg, 'utf8')) as { version: string };
    expect(fileType.version).toBe('21.3.4');
  });

  it('compiles with strict tsc (the app and its e2e test), then builds', () => {
    run(app, 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
    run(app, 'npx', ['tsc', '-p', 'tsconfig.build.json']);
    expect(existsSync(join(app, 'dist/main.js'))).toBe(true);
  }, 120000);

  it('boots against `npx partner-sandbox`, calls the partner, and handles the signed webhook', async () => {
    // Random ports (CI runs in parallel); everything else comes from the shipped .env.
    const sandbox = start(app, 'npx', ['partner-sandbox', '--port', '0'], cleanEnv());
    processes.push(sandbox);
    const [, sandboxUrl] = await sandbox.waitFor(/listening on (http:\/\/\S+) /);
    const server = start(
      app,
      process.execPath,
      ['dist/main.js'],
      cleanEnv({ PORT: '0', PARTNER_BASE_URL: sandboxUrl }),
    );
    processes.push(server);
    const [, port] = await server.waitFor(/listening on http:\/\/\S+:(\d+)/);
    const control = await fetch(`${sandboxUrl}/__control/setWebhookUrl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ args: [`http://127.0.0.1:${port}/webhooks/partner`] }),
    });
    expect(control.status).toBe(200);

    const created = await fetch(`http://127.0.0.1:${port}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }),
    });
    expect(created.status).toBe(201);
    const user = (await created.json()) as { userId: string };
    expect(user.userId).toMatch(/^[0-9a-f-]{36}$/);

    // The handler logs it: the delivery was signed, verified, recorded and dispatched.
    await server.waitFor(
      new RegExp(`\\[PartnerEventsHandler\\] user\\.created ${user.userId} \\(event `),
      15000,
    );
    const deliveries = (await (
      await fetch(`${sandboxUrl}/__control/deliveries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"args":[]}',
      })
    ).json()) as { result: { event: string; status: number | null; signature: string }[] };
    const delivery = deliveries.result.find((d) => d.event === 'user.created');
    expect(delivery).toMatchObject({ status: 200 });
    expect(server.output()).not.toMatch(
      /sandbox_test_password|whsec_sandbox_test_secret|sandbox_test_api_key/,
    );
  }, 60000);

  it('exposes the preset and the transformer under the entry points the README names', () => {
    const probe = `const preset = require('@partner-payments/testing/jest-preset');
      const transformer = require.resolve('@partner-payments/testing/jest/esm-to-cjs');
      console.log(JSON.stringify([Object.keys(preset.transform), preset.transform['^.+\\\\.js$'] === transformer]));`;
    expect(run(app, process.execPath, ['-e', probe]).output.trim()).toBe(
      '[["^.+\\\\.ts$","^.+\\\\.js$"],true]',
    );
  });

  it("runs the app's own e2e test (the shipped recipe) with the shipped Jest preset", () => {
    const { output } = run(app, 'npx', ['jest', '--ci'], 180000);
    expect(output).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(output).not.toMatch(/ts-jest\[[^\]]+\] \(WARN\)/);
  }, 200000);

  it('runs the same e2e test with Vitest, set up as the testing README says', () => {
    const commands = installCommands(step(testingBlocks, 'install-vitest'), tarballs);
    expect(commands).toHaveLength(1);
    for (const args of commands)
      run(app, 'npm', ['install', ...args.slice(1), '--prefer-offline', '--no-audit', '--no-fund'], 240000);
    const { output } = run(app, 'npx', ['vitest', 'run'], 120000);
    expect(output).toMatch(/Tests\s+2 passed \(2\)/);
  }, 400000);
});
