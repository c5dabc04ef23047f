/**
 * The sandbox in its own process (the built CLI), so its CPU and memory never count against the
 * client being measured; we talk to it over 127.0.0.1 and drive it with PartnerSandboxControlClient.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PartnerSandboxControlClient } from '@partner-payments/testing';
import { trackChild } from './child-registry.fixture';

const CLI = join(__dirname, '..', '..', 'libs', 'partner-payments-testing', 'dist', 'main.js');

export interface SandboxProcess {
  baseUrl: string;
  /** The sandbox's process id (its CPU time can be read from /proc). */
  pid: number;
  control: PartnerSandboxControlClient;
  close(): Promise<void>;
}

/**
 * Extra CLI flags, e.g. ['--rate-limit']. Credentials stay the CLI's fixed test defaults. The CLI
 * limits the rate by default (the partner's 20/s, burst 50); without '--rate-limit' the benches get
 * '--no-rate-limit', so they measure what they measured when the limit was opt-in. The benches open
 * their virtual accounts at bank_a, authorized here: the partner authorizes no bank by default
 * (spec 2.4 `authorizedBanks`: default []) and neither does the CLI.
 */
export async function startSandboxProcess(
  requested: string[] = [],
  nodeFlags: string[] = [],
): Promise<SandboxProcess> {
  const limited = requested.includes('--rate-limit') ? requested : [...requested, '--no-rate-limit'];
  const banksGiven = limited.includes('--authorized-banks') || limited.includes('--banks');
  const flags = banksGiven ? limited : [...limited, '--authorized-banks', 'bank_a'];
  const child: ChildProcess = trackChild(
    spawn(process.execPath, [...nodeFlags, CLI, '--host', '127.0.0.1', '--port', '0', '--quiet', ...flags], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('sandbox did not start within 15 s')), 15_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
  });
  child.stdout?.resume(); // keep draining so the child never blocks on a full pipe
  return {
    baseUrl,
    pid: child.pid as number,
    control: new PartnerSandboxControlClient(baseUrl),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
