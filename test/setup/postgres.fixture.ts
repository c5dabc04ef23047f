/**
 * For PostgreSQL suites: a fresh database on the throwaway cluster of the globalSetup.
 * Fails (never skips) when the cluster could not start, quoting why.
 */
import { randomBytes } from 'node:crypto';
import { createDatabase } from '../../scripts/pg-throwaway';

export async function freshPostgresUrl(prefix: string): Promise<string> {
  const base = process.env.TEST_POSTGRES_URL;
  if (!base) {
    throw new Error(
      `No throwaway PostgreSQL for this suite: ${process.env.TEST_POSTGRES_SETUP_ERROR ?? 'TEST_POSTGRES_URL is not set (globalSetup did not run?)'}`,
    );
  }
  return createDatabase(base, `${prefix}_${randomBytes(4).toString('hex')}`);
}
