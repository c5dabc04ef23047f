/**
 * e2e globalSetup: starts one throwaway PostgreSQL 15 cluster for the whole run and exports its
 * URL as TEST_POSTGRES_URL (workers inherit process.env). Suites create their own database on it
 * (scripts/pg-throwaway.ts createDatabase) so they never see each other's rows.
 * Missing binaries are logged loudly and TEST_POSTGRES_SETUP_ERROR is set: the PostgreSQL suites
 * then fail with that message instead of being skipped (CI installs postgresql-15, see .ci/run).
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../scripts/pg-throwaway';

declare global {
  var __THROWAWAY_PG__: ThrowawayPostgres | undefined;
}

export default async function globalSetup(): Promise<void> {
  // The reliability suite's counted table (test/reliability/tally.fixture.ts): one file per run.
  const tally = join(tmpdir(), `partner-reliability-${process.pid}.jsonl`);
  rmSync(tally, { force: true });
  process.env.RELIABILITY_TALLY_FILE = tally;
  if (process.env.TEST_POSTGRES_URL) return; // an externally provided server wins
  try {
    const pg = await startThrowawayPostgres({ database: 'reference_app_test' });
    globalThis.__THROWAWAY_PG__ = pg;
    process.env.TEST_POSTGRES_URL = pg.url;
  } catch (error) {
    const message = (error as Error).message;
    process.env.TEST_POSTGRES_SETUP_ERROR = message;
    console.error(
      `\n\n*** THROWAWAY POSTGRESQL DID NOT START: PostgreSQL e2e suites will FAIL ***\n${message}\n\n`,
    );
  }
}
