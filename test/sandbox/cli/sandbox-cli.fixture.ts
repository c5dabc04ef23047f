/**
 * The built `partner-sandbox` command in child processes, as `npm run sandbox` and `npx
 * partner-sandbox` run it (from dist/: build it first with buildProject).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const CLI = join(__dirname, '..', '..', '..', 'libs/partner-payments-testing/dist/main.js');

export interface RunningCli {
  child: ChildProcess;
  /** The first group of `ready` in the output (e.g. the URL a banner names). */
  found: string;
  output: () => string;
}

/** Spawns the CLI and resolves once its output (stdout and stderr) matches `ready`. */
export function spawnCli(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 15000,
): Promise<RunningCli> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cli did not get ready: ${out}`)), timeoutMs);
    const check = () => {
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, found: match[1] ?? match[0], output: () => out });
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cli exited ${code}: ${out}`));
    });
  });
}

/** Starts the sandbox CLI and resolves with its base URL once its banner is out. */
export async function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; baseUrl: string; output: () => string }> {
  // The webhooks line is the banner's last.
  const started = await spawnCli(args, /listening on (http:\/\/\S+) [\s\S]*webhooks:.*\n/, env);
  return { child: started.child, baseUrl: started.found, output: started.output };
}

/** Stops a CLI process with `signal`; resolves with its exit code. */
export const stop = (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });

/** Runs the CLI to its end; never rejects (a non-zero exit is in `code`). */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 60000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: timeoutMs },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          stdout,
          stderr,
        }),
    );
  });
}

/** A local URL nothing listens on (a port just freed; fetch refuses some well-known ones outright). */
export async function closedPortUrl(path = '/'): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}

/** Resolves with the CLI's output once it matches `pattern`; rejects with it after `timeoutMs`. */
export async function outputMatching(cli: RunningCli, pattern: RegExp, timeoutMs = 10000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(cli.output())) {
    if (Date.now() > deadline) throw new Error(`no output matching ${pattern}: ${cli.output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return cli.output();
}
