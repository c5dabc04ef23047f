import { rmSync } from 'node:fs';
import { readTallies, renderTallyTable } from '../reliability/tally.fixture';

/**
 * e2e globalTeardown: prints the reliability suite's table (when its specs ran), then stops the
 * throwaway PostgreSQL cluster and deletes its directory.
 */
export default async function globalTeardown(): Promise<void> {
  const file = process.env.RELIABILITY_TALLY_FILE;
  if (file) {
    const rows = readTallies(file);
    if (rows.length > 0) console.log(`\nReliability suite\n${renderTallyTable(rows)}\n`);
    rmSync(file, { force: true });
  }
  const pg = globalThis.__THROWAWAY_PG__;
  globalThis.__THROWAWAY_PG__ = undefined;
  if (pg) await pg.stop();
}
