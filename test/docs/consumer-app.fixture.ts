/**
 * Helpers of the consumer-app specs: the README steps both specs take (read from the README
 * blocks, see readme-blocks.fixture.ts), the app's build and its boot against the sandbox CLI.
 * The commands themselves: scratch-commands.fixture.ts; the apps' starting points:
 * scratch-apps.fixture.ts.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readBlocks, type ReadmeBlock } from './readme-blocks.fixture';
import { type Started, cleanEnv, merge, run, start, writeJson } from './scratch-commands.fixture';

export const MODULE_README = 'libs/partner-payments/README.md';
export const TESTING_README = 'libs/partner-payments-testing/README.md';

/** `npm install` with the given arguments; the cache first (CI runs it on several Node versions). */
export function npmInstall(app: string, args: string[] = []): string {
  return run(app, 'npm', ['install', ...args, '--prefer-offline', '--no-audit', '--no-fund'], 300000).output;
}

/** The packages npm warned `EBADENGINE` about (`name@version`). */
export function engineWarnings(npmOutput: string): string[] {
  return [...new Set([...npmOutput.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]))].sort();
}

/** The one block marked `<!-- consumer-app: <name> -->`. */
export function step(blocks: ReadmeBlock[], name: string): ReadmeBlock {
  const found = blocks.filter((b) => b.role.kind === 'consumer-app' && b.role.step === name);
  if (found.length !== 1)
    throw new Error(`expected one <!-- consumer-app: ${name} --> block, found ${found.length}`);
  return found[0];
}

/** The blocks marked `<!-- file: <path> -->`. */
export function files(blocks: ReadmeBlock[]): { path: string; code: string }[] {
  return blocks.flatMap((b) => (b.role.kind === 'file' ? [{ path: b.role.path, code: b.code }] : []));
}

/** A shell block's commands, each split into words (comments and blank lines dropped). */
export function commands(block: ReadmeBlock): string[][] {
  return block.code
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean)
    .map((line) => line.split(/\s+/));
}

/** The README's `npm install` lines (without `npm install`), tarball paths pointed at the packed ones. */
export function installCommands(block: ReadmeBlock, tarballs: string): string[][] {
  return commands(block)
    .filter(([npm, verb]) => npm === 'npm' && (verb === 'install' || verb === 'i'))
    .map((words) =>
      words.slice(2).map((arg) => (arg.endsWith('.tgz') ? join(tarballs, basename(arg)) : arg)),
    );
}

/** The names of a test file's tests (`it('...'`), to find them in a runner's output. */
export function testNames(source: string): string[] {
  return [...source.matchAll(/^\s*it\('([^']+)'/gm)].map((m) => m[1]);
}

/**
 * libs/partner-payments/README.md's install section in `app`, as written: its package.json step if any, its
 * `npm install` lines (the tarballs from `tarballs`), its files and the shipped `.env`. Answers the
 * install lines' output.
 */
export function followModuleReadme(app: string, tarballs: string): string {
  const blocks = readBlocks(MODULE_README);
  // A package.json step is optional: the README adds one only when the install needs it.
  const pkgStep = blocks.filter((b) => b.role.kind === 'consumer-app' && b.role.step === 'package.json');
  if (pkgStep.length > 0) {
    const pkgPath = join(app, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as Record<string, unknown>;
    writeJson(pkgPath, merge(pkg, JSON.parse(step(blocks, 'package.json').code) as Record<string, unknown>));
  }
  const installs = installCommands(step(blocks, 'install'), tarballs);
  if (installs.length < 2) throw new Error(`${MODULE_README}: expected two npm install lines`);
  let output = '';
  for (const args of installs) {
    for (const tgz of args.filter((a) => a.endsWith('.tgz')))
      if (!existsSync(tgz)) throw new Error(`${tgz} was not packed`);
    output += npmInstall(app, args);
  }
  writeFiles(app, files(blocks));
  const examples = join(app, 'node_modules/@partner-payments/testing/examples');
  copyFileSync(join(examples, 'sandbox.env'), join(app, '.env'));
  return output;
}

/** The testing README's `cp` of the shipped e2e test, as written; answers the copy's path in `app`. */
export function copyE2eTest(app: string): string {
  const cps = commands(step(readBlocks(TESTING_README), 'copy-e2e-test')).filter(([cmd]) => cmd === 'cp');
  if (cps.length !== 1 || cps[0].length !== 3)
    throw new Error(`${TESTING_README}: expected one \`cp src dest\``);
  const [, from, to] = cps[0];
  const target = to.endsWith('/') ? join(to, basename(from)) : to;
  mkdirSync(dirname(join(app, target)), { recursive: true });
  copyFileSync(join(app, from), join(app, target));
  return target;
}

export function writeFiles(app: string, list: { path: string; code: string }[]): void {
  for (const file of list) {
    mkdirSync(dirname(join(app, file.path)), { recursive: true });
    writeFileSync(join(app, file.path), file.code);
  }
}

/**
 * Type-checks the app with its own tsconfig.json (its sources, its tests and the copied e2e test),
 * then `npm run build`; true when the build left dist/main.js.
 */
export function compileAndBuild(app: string): boolean {
  run(app, 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
  run(app, 'npm', ['run', 'build']);
  return existsSync(join(app, 'dist/main.js'));
}

/**
 * Boots the built app (`node dist/main.js`) against `npx partner-sandbox`, as the module README's
 * quick start does, creates a user through the README's controller and waits for the README's
 * handler to log the signed user.created webhook. The processes go into `processes` (stopped by the
 * caller).
 */
export async function bootAgainstSandboxCli(app: string, processes: Started[]): Promise<void> {
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
  expect(server.output()).not.toMatch(/sandbox_test_password|whsec_sandbox_test_secret|sandbox_test_api_key/);
}
