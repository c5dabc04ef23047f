/**
 * Commands in a scratch app as a user would run them: this machine's environment without Jest's,
 * a command to its end or a server started in the background, and the JSON files they read.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';

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
