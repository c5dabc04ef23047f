/**
 * The RFI projection's migration (1765400000000-rfis) on both databases: it applies on the schema
 * before it, its tables take the entities' rows (booleans, timestamps, text) and read them back
 * alike, and it reverts.
 */
import { DataSource, type DataSourceOptions } from 'typeorm';
import { buildDataSourceOptions, openDataSource } from '../../../apps/reference-app/src/app-data-source.util';
import { parseDatabaseUrl } from '../../../apps/reference-app/src/database/database-url.util';
import { MIGRATIONS } from '../../../apps/reference-app/src/database/migrations';
import { Rfis1765400000000 } from '../../../apps/reference-app/src/database/migrations/1765400000000-rfis.migration';
import { RfiItemEntity } from '../../../apps/reference-app/src/rfis/rfi-item.entity';
import { RfiEntity } from '../../../apps/reference-app/src/rfis/rfi.entity';
import { DATABASE_KINDS, databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(30_000);

describe.each(DATABASE_KINDS)('the RFI migration (%s)', (kind) => {
  it('applies on the schema before it, stores RFI rows alike, and reverts', async () => {
    const { url, cleanup } = await databaseUrlFor(kind, 'rfis_migration');
    const parsed = parseDatabaseUrl(url);
    const before = await new DataSource({
      ...buildDataSourceOptions(parsed),
      migrations: MIGRATIONS.slice(0, MIGRATIONS.indexOf(Rfis1765400000000)),
    } as DataSourceOptions).initialize();
    let ds: DataSource | null = null;
    try {
      const runner = before.createQueryRunner();
      expect(await runner.hasTable('rfis')).toBe(false);
      await runner.release();
      await before.destroy();

      ds = await openDataSource(parsed);
      const due = new Date('2026-12-01T10:00:00.000Z');
      await ds.getRepository(RfiEntity).insert({
        rfiId: 'a1b2c3d4-0000-4000-8000-000000000001',
        userId: 'u1',
        status: 'pending',
        blocking: true,
        blockingType: 'payout',
        blockingRef: 't1',
        dueAt: due,
        resolutionReason: null,
        openedAt: new Date('2026-11-01T00:00:00.000Z'),
        stale: false,
        readAt: null,
        lastSource: 'read',
        updatedAt: new Date(),
      });
      await ds.getRepository(RfiItemEntity).insert({
        itemId: 'a1b2c3d4-0000-4000-8000-000000000002',
        rfiId: 'a1b2c3d4-0000-4000-8000-000000000001',
        ordinal: 1,
        prompt: 'What is the trading name?',
        answerType: 'text_short',
        answerSpec: '{"max_length":50}',
        targetKey: null,
        subject: null,
        status: 'pending',
        documents: '[]',
        reviewNote: null,
        answeredAt: null,
        returnedAt: null,
      });
      const rfi = await ds.getRepository(RfiEntity).findOneByOrFail({ blocking: true });
      expect(rfi).toMatchObject({ blocking: true, stale: false, dueAt: due, status: 'pending' });
      expect(await ds.getRepository(RfiItemEntity).countBy({ rfiId: rfi.rfiId })).toBe(1);

      const revert = ds.createQueryRunner();
      await new Rfis1765400000000().down(revert);
      expect(await revert.hasTable('rfis')).toBe(false);
      expect(await revert.hasTable('rfi_items')).toBe(false);
      await new Rfis1765400000000().up(revert);
      expect(await revert.hasTable('rfis')).toBe(true);
      await revert.release();
    } finally {
      if (before.isInitialized) await before.destroy();
      if (ds?.isInitialized) await ds.destroy();
      cleanup();
    }
  });
});
