/**
 * A child process that runs one job on a SQLite file through PartnerJobLockService and never
 * finishes it: it tells its parent `{ running: true }` once the work has started (or the run's
 * outcome when it did not get the lock) and waits to be killed.
 * argv: <sqlite file> <job name> <holder> <lease ms>
 */
import { PartnerJobLockService } from '@partner-payments/typeorm';
import { DataSource } from 'typeorm';
import { packageDataSourceOptions } from './typeorm-database.fixture';

async function main(): Promise<void> {
  const [file, job, holder, leaseMs] = process.argv.slice(2);
  const dataSource = new DataSource(packageDataSourceOptions('sqlite', file));
  await dataSource.initialize();
  const locks = new PartnerJobLockService(dataSource, { holder, sqliteLeaseMs: Number(leaseMs) });
  const outcome = await locks.runExclusive(job, async () => {
    process.send?.({ running: true });
    await new Promise(() => undefined);
  });
  process.send?.({ outcome });
}

main().catch((error: unknown) => {
  process.send?.({ error: String(error) });
  process.exitCode = 1;
});
