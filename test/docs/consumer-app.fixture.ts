/**
 * Helpers of the consumer-app specs: commands with a bounded run time and their output kept for the
 * failure message, long-running processes awaited on what they print, the scratch apps' starting
 * points (a real `nest new`, and a CommonJS app for the Jest route), and the README steps both
 * specs take (read from the README blocks, see readme-blocks.fixture.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
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
import { EXISTING_APP_FILES, readBlocks, REPO_ROOT, type ReadmeBlock } from './readme-blocks.fixture';

/** The environment the scratch app's commands see: this machine's, without Jest's and ours. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(JEST_|PARTNER_|TEST_POSTGRES|NODE_ENV$|RELIABILITY_)/.test(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    NO_COLOR: '1',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

export interface CommandResult {
  status: number | null;
  output: string;
}

/** Runs a command to its end (at most timeoutMs); throws with the output's tail when it fails. */
export function run(cwd: string, command: string, args: string[], timeoutMs = 180000): CommandResult {
  const result = spawnSync(command, args, {
    cwd,
    env: cleanEnv(),
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0)
    throw new Error(
      `\`${command} ${args.join(' ')}\` in ${cwd} ended with ${result.status ?? result.signal}${result.error ? ` (${result.error.message})` : ''}:\n${output.slice(-6000)}`,
    );
  return { status: result.status, output };
}

export interface Started {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first match of `pattern` in the output (already printed or to come). */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  stop: () => Promise<void>;
}

export function start(cwd: string, command: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    for (const l of [...listeners]) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let exited = false;
  child.on('exit', () => {
    exited = true;
    for (const l of [...listeners]) l();
  });
  const waitFor = (pattern: RegExp, timeoutMs = 30000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`timed out waiting for ${pattern}`)), timeoutMs);
      const check = () => {
        const match = pattern.exec(out);
        if (match) done(null, match);
        else if (exited) done(new Error(`exited (code ${child.exitCode}) before printing ${pattern}`));
      };
      const done = (error: Error | null, match?: RegExpMatchArray) => {
        clearTimeout(timer);
        listeners.delete(check);
        if (error)
          reject(
            new Error(`\`${command} ${args.join(' ')}\`: ${error.message}; output:\n${out.slice(-4000)}`),
          );
        else resolve(match!);
      };
      listeners.add(check);
      check();
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (exited) return resolve();
      child.once('exit', () => resolve());
      // npx runs the command under its own process: signal the whole group.
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        resolve();
      }
    });
  return { child, output: () => out, waitFor, stop };
}

export function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Deep merge of plain objects (the README's package.json fragment into the app's). */
export function merge(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [k, v] of Object.entries(source)) {
    const t = out[k];
    const isObject = (x: unknown): x is Record<string, unknown> =>
      typeof x === 'object' && x !== null && !Array.isArray(x);
    out[k] = isObject(t) && isObject(v) ? merge(t, v) : v;
  }
  return out;
}

export const MODULE_README = 'libs/partner-payments/README.md';
export const TESTING_README = 'libs/partner-payments-testing/README.md';

/**
 * The Nest CLI that makes the scratch app, pinned so a CI run is repeatable (what `npx @nestjs/cli@12`
 * makes changes with each release). Raise it on purpose, and read what the new one generates. The
 * app's own dependencies are the `^` ranges the CLI writes, resolved as for any user that day.
 */
export const NEST_CLI = '@nestjs/cli@12.0.8';

/** `nest new <name>` in `parent`, as a user runs it (strict TypeScript, npm), without installing. */
export function nestNew(parent: string, name: string): string {
  run(
    parent,
    'npx',
    [
      '--yes',
      NEST_CLI,
      'new',
      name,
      '--skip-git',
      '--skip-install', // the spec installs next, with its own time limit and the output kept
      '--package-manager',
      'npm',
      '--strict',
      '--no-observe', // the CLI would ask otherwise
    ],
    240000,
  );
  return join(parent, name);
}

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
 * One spec's scratch folder and processes, called in its describe: `makeFolder()` (in beforeAll)
 * checks the tarballs the docs project packed and makes a temp folder; after the spec the
 * processes are stopped and the folder removed (kept with KEEP_CONSUMER_APP=1).
 */
export function scratchApp(prefix: string) {
  const tarballs = process.env.PARTNER_PAYMENTS_TARBALLS ?? '';
  const processes: Started[] = [];
  let folder = '';
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    if (folder && !process.env.KEEP_CONSUMER_APP) rmSync(folder, { recursive: true, force: true });
  });
  return {
    tarballs,
    processes,
    makeFolder(): string {
      if (!tarballs || !existsSync(tarballs))
        throw new Error('PARTNER_PAYMENTS_TARBALLS unset: run through the docs Jest project');
      folder = mkdtempSync(join(tmpdir(), prefix));
      return folder;
    },
  };
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

/**
 * The Jest route's starting point: a CommonJS NestJS 12 app (no "type": "module") with Jest, in the
 * shape `nest new` made before version 12 (its tsconfig, strict; its AppController and AppService),
 * written by hand: NOT what `nest new` makes today (consumer-app.spec.ts runs the real one). No Jest
 * config yet: the testing README's jest.config.js is the first. Versions follow this repository's,
 * so the npm cache serves them.
 */
export function scaffoldCommonJsNestApp(dir: string): void {
  const ours = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const pick = (from: Record<string, string>, names: string[]) =>
    Object.fromEntries(names.map((n) => [n, from[n]]));
  writeJson(join(dir, 'package.json'), {
    name: 'consumer-app-commonjs',
    version: '0.0.1',
    private: true,
    scripts: {
      build: 'tsc -p tsconfig.build.json',
      'start:prod': 'node dist/main',
    },
    dependencies: pick(ours.dependencies, [
      '@nestjs/common',
      '@nestjs/core',
      '@nestjs/platform-express',
      'reflect-metadata',
      'rxjs',
    ]),
    devDependencies: pick(ours.devDependencies, [
      '@nestjs/testing',
      '@types/express',
      '@types/jest',
      '@types/node',
      'jest',
      'ts-jest',
      'typescript',
    ]),
  });
  writeJson(join(dir, 'tsconfig.json'), {
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      resolvePackageJsonExports: true,
      esModuleInterop: true,
      isolatedModules: true,
      declaration: true,
      removeComments: true,
      emitDecoratorMetadata: true,
      experimentalDecorators: true,
      target: 'ES2023',
      sourceMap: true,
      outDir: './dist',
      rootDir: './', // TypeScript 6 wants it explicit when src/ and test/ share one config
      incremental: true,
      skipLibCheck: true,
      strict: true,
      forceConsistentCasingInFileNames: true,
      types: ['node', 'jest'],
    },
    include: ['src', 'test'],
  });
  writeJson(join(dir, 'tsconfig.build.json'), {
    extends: './tsconfig.json',
    compilerOptions: { rootDir: './src', tsBuildInfoFile: './dist/.tsbuildinfo' },
    include: ['src'],
  });
  writeFiles(
    dir,
    Object.entries(EXISTING_APP_FILES).map(([path, code]) => ({ path, code })),
  );
}
