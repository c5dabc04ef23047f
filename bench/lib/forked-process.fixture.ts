/**
 * A TypeScript server started in its own process (fork + ts-node), so its CPU and memory never
 * count against the process that measures it. The child sends `{ url }` over IPC once listening;
 * on the message 'stop' it closes and sends `{ closed: true, ... }` before it exits.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { trackChild } from './child-registry.fixture';

export interface ForkedServer {
  child: ChildProcess;
  url: string;
  /** Asks the child to close; resolves with its last message once it has exited. */
  stop(): Promise<Record<string, unknown>>;
  /** SIGKILL, as a crash would (no shutdown hooks, no drain). */
  kill(): Promise<void>;
}

const ROOT = join(__dirname, '..', '..');

/**
 * BENCH_CPU_PROF_DIR=<dir>: every forked server runs under `node --cpu-prof` and writes its profile
 * there when it exits (Node refuses --cpu-prof in NODE_OPTIONS, so it has to be set here).
 */
const PROFILE = process.env.BENCH_CPU_PROF_DIR
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
  : [];

/** The .ts loader (transpile.register.js says why not ts-node's); BENCH_TS_NODE=1 for ts-node. */
const LOADER = process.env.BENCH_TS_NODE
  ? 'ts-node/register/transpile-only'
  : `${__dirname}/transpile.register.js`;

export function startForkedServer(
  file: string,
  env: Record<string, string>,
  args: string[] = [],
  bootTimeoutMs = 120_000,
): Promise<ForkedServer> {
  const child = trackChild(
    fork(file, args, {
      cwd: ROOT,
      execArgv: [...PROFILE, '-r', LOADER],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${file} did not start in ${bootTimeoutMs} ms`)),
      bootTimeoutMs,
    );
    child.once('exit', (code) => reject(new Error(`${file} exited early (${code})`)));
    child.once('message', (m: { url?: string }) => {
      clearTimeout(timer);
      if (!m.url) return reject(new Error(`${file} sent no url`));
      resolve({
        child,
        url: m.url,
        stop: () =>
          new Promise((done, fail) => {
            if (child.exitCode !== null) return done({});
            const t = setTimeout(() => fail(new Error(`${file} did not stop within 120 s`)), 120_000);
            let last: Record<string, unknown> = {};
            child.on('message', (msg: Record<string, unknown>) => (last = msg));
            void exited.then(() => {
              clearTimeout(t);
              done(last);
            });
            child.send('stop');
          }),
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}

/** In the child: report the URL, and close on 'stop' (then exit). */
export function serveUntilStopped(url: string, close: () => Promise<Record<string, unknown>>): void {
  process.on('message', (msg) => {
    if (msg !== 'stop') return;
    void close().then(
      (summary) => process.send?.({ closed: true, ...summary }, () => process.exit(0)),
      (error: unknown) => {
        process.stderr.write(`close failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  });
  process.send?.({ url });
}
