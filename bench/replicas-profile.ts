/**
 * Where the time of a reconciliation pass goes (the replicas row), not a benchmark row:
 * one or two replicas reconcile BENCH_REPLICAS_PAYOUTS payouts on PostgreSQL (partner limit off),
 * and for each pass it prints the wall time, the CPU seconds of each process (replicas, the
 * sandbox, PostgreSQL's backends, this driver) and the statements PostgreSQL spent most time in
 * (pg_stat_statements). --cpu-prof writes V8 profiles of the replicas and the sandbox to
 * bench/results/profiles/.
 *
 *   npx ts-node --transpile-only bench/replicas-profile.ts [--replicas 1|2] [--rounds n] [--cpu-prof]
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { newPgClient } from '../scripts/pg-client.util';
import { SANDBOX_DEFAULTS, type PartnerSandbox } from '@partner-payments/testing';
import { openDataSource } from '../apps/reference-app/src/app-data-source.util';
import { parseDatabaseUrl } from '../apps/reference-app/src/database/database-url.util';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { createDatabase, startThrowawayPostgres } from '../scripts/pg-throwaway';
import { createFundedAccount } from '../test/setup/funded-account.fixture';
import { seedPayouts, storedStatuses } from '../test/setup/payout-seed.fixture';
import { startReplicaProcess } from '../test/setup/replica-process.fixture';
import { trackChild } from './lib/child-registry.fixture';
import { sandboxClient } from './lib/partner.client';
import { resetSeeded, round } from './reconciliation.fixture';
import { startSandboxProcess } from './lib/sandbox-process.fixture';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : process.argv[i + 1];
};
const REPLICAS = Number(arg('--replicas', '1'));
const ROUNDS = Number(arg('--rounds', '2'));
const PROFILE = process.argv.includes('--cpu-prof');
const PAYOUTS = Number(process.env.BENCH_REPLICAS_PAYOUTS ?? 100_000);
const PROFILE_DIR = join(__dirname, 'results', 'profiles');
const profFlags = (name: string) =>
  PROFILE ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR, '--cpu-prof-name', `${name}.cpuprofile`] : [];

/** utime + stime of a process (and, with `reaped`, of its waited-for children), in seconds. */
function cpuOf(pid: number, reaped = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0);
    return ticks / 100;
  } catch {
    return 0;
  }
}

/** Every process whose parent is `ppid`. */
function childrenOf(ppid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === ppid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function main(): Promise<void> {
  const pg = await startThrowawayPostgres({
    settings: {
      shared_preload_libraries: 'pg_stat_statements',
      'pg_stat_statements.track': 'all',
      'pg_stat_statements.track_planning': 'on',
    },
  });
  const postmaster = Number(readFileSync(join(pg.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pgCpu = () => cpuOf(postmaster, true) + childrenOf(postmaster).reduce((n, pid) => n + cpuOf(pid), 0);
  const sandbox = await startSandboxProcess([], profFlags('sandbox'));
  const url = await createDatabase(pg.url, 'replicas_profile');
  const dataSource = await openDataSource(parseDatabaseUrl(url));
  const uow = new PartnerUnitOfWork(dataSource);
  const admin = newPgClient({ connectionString: url });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const children: ChildProcess[] = [];
  try {
    const target = await createFundedAccount(
      { client: sandboxClient(sandbox.baseUrl, { rateLimit: false }), baseUrl: sandbox.baseUrl },
      'profile',
    );
    const seeded = await seedPayouts(sandbox.control, [uow], target, PAYOUTS);
    const asSandbox = {
      baseUrl: sandbox.baseUrl,
      credentials: { ...SANDBOX_DEFAULTS },
      webhookSecret: SANDBOX_DEFAULTS.webhookSecret,
    } as unknown as PartnerSandbox;
    const replicas = await Promise.all(
      Array.from({ length: REPLICAS }, (_, i) =>
        startReplicaProcess(
          url,
          asSandbox,
          { PARTNER_RATE_BUDGET: 'off' },
          {
            sources: false,
            // PROFILE_PRELOAD: a module each replica loads first (e.g. one timing its methods).
            nodeFlags: [
              ...profFlags(`replica-${i}`),
              ...(process.env.PROFILE_PRELOAD ? ['-r', process.env.PROFILE_PRELOAD] : []),
            ],
            onSpawn: (c) => children.push(trackChild(c)),
          },
        ),
      ),
    );
    for (let r = 0; r < ROUNDS; r++) {
      await resetSeeded(uow, seeded);
      await admin.query('VACUUM ANALYZE payouts');
      await admin.query('SELECT pg_stat_statements_reset()');
      const updates = async () =>
        (
          await admin.query(
            `SELECT n_tup_upd::int AS updated, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables WHERE relname = 'payouts'`,
          )
        ).rows[0] as { updated: number; hot: number };
      const updatesBefore = await updates();
      const before = {
        replicas: children.map((c) => cpuOf(c.pid as number)),
        sandbox: cpuOf(sandbox.pid),
        pg: pgCpu(),
        driver: process.cpuUsage(),
      };
      const started = performance.now();
      const summaries = await Promise.all(replicas.map((x) => x.reconcile()));
      const seconds = (performance.now() - started) / 1000;
      const cpu = {
        replicas: children.map((c, i) => round(cpuOf(c.pid as number) - before.replicas[i], 2)),
        sandbox: round(cpuOf(sandbox.pid) - before.sandbox, 2),
        postgres: round(pgCpu() - before.pg, 2),
        driver: round(
          (process.cpuUsage(before.driver).user + process.cpuUsage(before.driver).system) / 1e6,
          2,
        ),
      };
      await new Promise((r) => setTimeout(r, 600)); // the statistics collector's report interval
      const updatesAfter = await updates();
      const stored = await storedStatuses(uow, seeded.expected.keys());
      const wrong = [...seeded.expected].filter(([id, s]) => stored.get(id) !== s).length;
      const { rows } = await admin.query(
        `SELECT calls, round(total_exec_time) AS ms, round(total_plan_time) AS plan, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS q
         FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT 12`,
      );
      const total = Object.values(cpu)
        .flat()
        .reduce((n: number, x) => n + (x as number), 0);
      process.stderr.write(
        `\nround ${r + 1}: ${round(seconds, 2)} s wall, CPU s ${JSON.stringify(cpu)} = ${round(total, 1)} s (${round(total / seconds, 2)} cores), ` +
          `payout row updates ${updatesAfter.updated - updatesBefore.updated} (HOT ${updatesAfter.hot - updatesBefore.hot}), ` +
          `checked ${summaries.map((s) => s.checked).join('+')}, reads ${summaries.map((s) => s.reads).join('+')}, wrong ${wrong}\n`,
      );
      for (const row of rows)
        process.stderr.write(
          `  ${row.calls}\t${row.ms} ms\tplan ${row.plan} ms\t${row.rows} rows\t${row.q}\n`,
        );
    }
    for (const x of replicas) await x.close();
  } finally {
    await admin.end();
    await dataSource.destroy();
    await sandbox.close();
    await pg.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `replicas-profile failed: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  },
);
