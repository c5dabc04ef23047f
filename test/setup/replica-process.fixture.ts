/**
 * Another replica of the app in a child process on the same database (PostgreSQL, or the same
 * SQLite file: two connections in one process would block each other's event loop while one holds
 * the file's write lock, which separate processes never do).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { ReconciliationSummary } from '../../apps/reference-app/src/reconciliation/reconciliation.service';
import { partnerEnv, testAppEnv } from './app.fixture';
import type { ReplicaCommand } from './replica-child.fixture';

export interface ReplicaProcess {
  url: string;
  reconcile(): Promise<ReconciliationSummary>;
  /** `calls` reads of one payout through the replica's partner client, `concurrency` at a time. */
  load(payoutId: string, calls: number, concurrency: number): Promise<{ ok: number; failed: number }>;
  close(): Promise<void>;
}

export interface ReplicaProcessOptions {
  /** Resolve the workspace packages to their sources (tests) rather than dist/ (benchmarks). Default: under Jest. */
  sources?: boolean;
  /** How long start-up may take (ts-node compiles the app). Default 120 s. */
  startTimeoutMs?: number;
  /** More Node flags for the child, e.g. ['--cpu-prof'] to profile a replica. */
  nodeFlags?: string[];
  /** Told of the child as soon as it is forked (a benchmark makes sure it dies with it). */
  onSpawn?: (child: ChildProcess) => void;
}

export async function startReplicaProcess(
  databaseUrl: string,
  sandbox: Pick<PartnerSandbox, 'baseUrl' | 'credentials' | 'webhookSecret'>,
  env: Record<string, string> = {},
  options: ReplicaProcessOptions = {},
): Promise<ReplicaProcess> {
  const sources = options.sources ?? process.env.JEST_WORKER_ID !== undefined;
  const execArgv = [...(options.nodeFlags ?? []), '-r', 'ts-node/register/transpile-only'];
  if (sources) execArgv.push('-r', join(__dirname, 'source-packages.fixture.ts'));
  const child: ChildProcess = fork(join(__dirname, 'replica-child.fixture.ts'), [], {
    cwd: join(__dirname, '..', '..'),
    execArgv,
    env: { ...process.env, ...testAppEnv(databaseUrl), ...partnerEnv(sandbox as PartnerSandbox), ...env },
    // Its output goes to our stderr: a benchmark's stdout carries only its result line.
    stdio: ['ignore', 2, 2, 'ipc'],
  });
  options.onSpawn?.(child);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('replica did not start in time'));
    }, options.startTimeoutMs ?? 120_000);
    child.once('message', (m: { ready?: string }) => {
      clearTimeout(timer);
      if (m.ready) resolve(m.ready);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`replica exited during start (${code})`));
    });
  });
  let next = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on('message', (m: { id?: number; result?: unknown; error?: string }) => {
    const waiter = m.id === undefined ? undefined : pending.get(m.id);
    if (!waiter) return;
    pending.delete(m.id as number);
    if (m.error !== undefined) waiter.reject(new Error(m.error));
    else waiter.resolve(m.result);
  });
  const send = <T>(command: ReplicaCommand): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, ...command });
    });
  return {
    url,
    reconcile: () => send<ReconciliationSummary>({ cmd: 'reconcile' }),
    load: (payoutId, calls, concurrency) => send({ cmd: 'load', payoutId, calls, concurrency }),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      await send({ cmd: 'stop' }).catch(() => child.kill());
      await exited;
    },
  };
}
