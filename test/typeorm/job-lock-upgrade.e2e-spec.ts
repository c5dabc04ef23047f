import {
  PartnerJobLockEntity,
  PartnerJobLockService,
  partnerTypeOrmMigrations,
} from '@partner-payments/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { buildDataSourceOptions, openDataSource } from '../../apps/reference-app/src/app-data-source.util';
import { parseDatabaseUrl } from '../../apps/reference-app/src/database/database-url.util';
import { MIGRATIONS } from '../../apps/reference-app/src/database/migrations';
import { PayoutRequestsToPackage1765300000000 } from '../../apps/reference-app/src/database/migrations/1765300000000-payout-requests-to-package.migration';
import { placeholders, timestampParam } from '@partner-payments/typeorm/sql';
import { DATABASE_KINDS, databaseUrlFor } from '../setup/test-database.fixture';

jest.setTimeout(60_000);

const columnsOf = async (ds: DataSource) =>
  ((await ds.createQueryRunner().getTable('job_locks'))?.columns ?? []).map((c) => c.name);

/** Rows as the reference app's job lock wrote them, every column filled. */
const OLD_ROWS = [
  [
    'reconciliation',
    'host-1:41',
    '2026-11-27T03:00:00.000Z',
    '2026-11-27T03:00:04.500Z',
    'ok',
    null,
    41,
    null,
  ],
  [
    'deposit-reconciliation',
    'host-2:7',
    '2026-11-27T04:00:00.000Z',
    '2026-11-27T04:01:00.000Z',
    'error',
    'partner down',
    12,
    '{"watermark":"2026-11-26","fullPages":3}',
  ],
  ['inbox-redelivery', 'host-1:41', '2026-11-27T05:00:00.000Z', null, null, null, 0, null],
] as const;

describe.each(DATABASE_KINDS)(
  'the package migration on the reference app’s job_locks with rows (%s)',
  (kind) => {
    it('adds the lease columns, keeps every row, and the lock works on the upgraded table', async () => {
      const { url, cleanup } = await databaseUrlFor(kind, 'upgrade-locks');
      const db = parseDatabaseUrl(url);
      const opened: DataSource[] = [];
      try {
        // The schema the app's own migrations made, before the package's.
        const before = new DataSource({
          ...buildDataSourceOptions(db),
          // (and before the app's later move of its payout requests into the package's table)
          migrations: MIGRATIONS.filter(
            (m) =>
              !partnerTypeOrmMigrations.includes(m as never) && m !== PayoutRequestsToPackage1765300000000,
          ),
        } as DataSourceOptions);
        opened.push(await before.initialize());
        await before.runMigrations();
        expect(await columnsOf(before)).not.toContain('lease_until');
        const p = placeholders(kind, 8).join(', ');
        for (const [name, holder, started, finished, outcome, error, runs, checkpoint] of OLD_ROWS)
          await before.query(
            `INSERT INTO job_locks (name, holder, last_started_at, last_finished_at, last_outcome, last_error, runs, checkpoint) VALUES (${p})`,
            [
              name,
              holder,
              timestampParam(kind, new Date(started)),
              finished && timestampParam(kind, new Date(finished)),
              outcome,
              error,
              runs,
              checkpoint,
            ],
          );
        await before.destroy();

        const after = await openDataSource(db);
        opened.push(after);
        expect(await columnsOf(after)).toEqual(
          expect.arrayContaining(['lease_holder', 'lease_until', 'checkpoint']),
        );
        const rows = await after.getRepository(PartnerJobLockEntity).find({ order: { name: 'ASC' } });
        expect(
          rows.map((r) => [
            r.name,
            r.holder,
            r.lastStartedAt?.toISOString(),
            r.lastFinishedAt?.toISOString() ?? null,
            r.lastOutcome,
            r.lastError,
            r.runs,
            r.checkpoint,
          ]),
        ).toEqual([...OLD_ROWS].sort((a, b) => a[0].localeCompare(b[0])).map((r) => [...r]));
        expect(rows.every((r) => r.leaseHolder === null && r.leaseUntil === null)).toBe(true);

        // The lock on a job that has a row already: a second replica is refused while the first runs.
        const other = await openDataSource(db);
        opened.push(other);
        const a = new PartnerJobLockService(after, { holder: 'replica-a' });
        const b = new PartnerJobLockService(other, { holder: 'replica-b' });
        let release!: () => void;
        let started = false;
        const run = a.runExclusive('reconciliation', async () => {
          started = true;
          await new Promise<void>((r) => (release = r));
          return 'a';
        });
        while (!started) await new Promise((r) => setTimeout(r, 10));
        expect(await b.runExclusive('reconciliation', async () => 'b')).toEqual({
          ran: false,
          reason: 'locked',
        });
        release();
        expect(await run).toEqual({ ran: true, result: 'a' });
        expect(
          await after.getRepository(PartnerJobLockEntity).findOneByOrFail({ name: 'reconciliation' }),
        ).toMatchObject({
          runs: 42,
          holder: 'replica-a',
          lastOutcome: 'ok',
        });
      } finally {
        for (const ds of opened.reverse()) if (ds.isInitialized) await ds.destroy();
        cleanup();
      }
    });
  },
);
