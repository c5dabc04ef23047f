/**
 * What a pass costs PostgreSQL and the app per list page, on a
 * SQLite file and on PostgreSQL. Every payout of the partner's list still stands as the app knows
 * it: a run of pages writes its claim and the page counter and nothing else (no transaction around
 * an empty settlement), and on PostgreSQL those statements are named statements, parsed and planned
 * once per connection rather than once per page. A claim (last_checked_at) updates no index.
 */
import type { PartnerSandbox } from '@partner-payments/testing';
import { DataSource } from 'typeorm';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { pgPoolOf } from '@partner-payments/typeorm/sql';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { LIST_PAGES_PER_TAKE } from '../../../apps/reference-app/src/reconciliation/list-window.policy';
import { ReconciliationService } from '../../../apps/reference-app/src/reconciliation/reconciliation.service';
import { startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { createFundedAccount } from '../../setup/funded-account.fixture';
import { PAYOUT_MIX, seedPayouts, storedStatuses, type SeededPayouts } from '../../setup/payout-seed.fixture';
import { countQueries } from '../../setup/query-counter.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(120_000);

const PAYOUTS = 600;
const UNCHANGED = PAYOUT_MIX.filter((s) => s.name === 'unchanged').map((s) => ({ ...s, share: 1 }));

describe.each(DATABASE_KINDS)('statements of a reconciliation pass on %s', (kind) => {
  let sandbox: PartnerSandbox;
  let app: RunningApp;
  let seeded: SeededPayouts;
  let cleanup = (): void => undefined;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor(kind, 'recon-statements');
    cleanup = db.cleanup;
    app = await startTestApp(db.url, { PARTNER_RATE_BUDGET: 'off' }, sandbox);
    const account = await createFundedAccount(app, `recon-statements-${kind}`);
    seeded = await seedPayouts(
      sandbox.control,
      [app.app.get(PartnerUnitOfWork)],
      account,
      PAYOUTS,
      UNCHANGED,
    );
    // The account's set-up webhooks, processed: their transactions must not count as the pass's.
    await sandbox.control.flushWebhooks();
    const uow = app.app.get(PartnerUnitOfWork);
    const pending = async () =>
      Number(
        (
          await uow.run((m) => m.query(`SELECT COUNT(*) AS n FROM webhook_inbox WHERE state <> 'processed'`))
        )[0].n,
      );
    for (let waited = 0; (await pending()) > 0 && waited < 10_000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
  });
  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
    cleanup();
  });

  it('runs of pages whose payouts did not move: a claim and the page counter each, no transaction', async () => {
    const queries = countQueries(app.app.get(DataSource));
    const summary = await app.app.get(ReconciliationService).runOnce();
    queries.stop();
    expect(summary).toMatchObject({ ran: true, checked: PAYOUTS, changed: 0, failed: 0, reads: 0 });
    expect(summary.pages).toBe(PAYOUTS / 100);
    // BEGIN/COMMIT: only the pass's opening (a transaction with nothing in it was 2 round trips per page);
    // on PostgreSQL also the participant connection's keepalive settings, once (one SET statement).
    expect(queries.counts().other).toBe(kind === 'postgres' ? 3 : 2);
    // Per run of LIST_PAGES_PER_TAKE pages: take it, claim its payouts, mark it settled. Once: the
    // pass row (insert-if-absent, open), its participants (forget the last pass's, join, leave), the
    // claim of what no page showed (none), finish.
    expect(queries.counts().writes).toBe(3 * Math.ceil(summary.pages / LIST_PAGES_PER_TAKE) + 7);
    expect(await storedStatuses(app.app.get(PartnerUnitOfWork), seeded.expected.keys())).toEqual(
      seeded.expected,
    );
  });

  it('a claim touches no index: last_checked_at is in none, and PostgreSQL pages keep room for the new row', async () => {
    const uow = app.app.get(PartnerUnitOfWork);
    const indexes: Array<{ def: string }> = await uow.run((m) =>
      m.query(
        kind === 'postgres'
          ? `SELECT indexdef AS def FROM pg_indexes WHERE tablename = 'payouts'`
          : `SELECT sql AS def FROM sqlite_master WHERE type = 'index' AND tbl_name = 'payouts' AND sql IS NOT NULL`,
      ),
    );
    expect(indexes.length).toBeGreaterThan(0);
    expect(indexes.filter((i) => i.def.includes('last_checked_at'))).toEqual([]);
    if (kind === 'postgres') {
      const [table]: Array<{ options: string[] | null }> = await uow.run((m) =>
        m.query(`SELECT reloptions AS options FROM pg_class WHERE relname = 'payouts'`),
      );
      expect(table.options).toContain('fillfactor=90');
    }
  });

  (kind === 'postgres' ? it : it.skip)(
    'the per-page statements are prepared once per connection',
    async () => {
      await app.app.get(ReconciliationService).runOnce();
      const pool = pgPoolOf(app.app.get(DataSource).manager);
      const clients = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
      const names = new Set<string>();
      try {
        for (const client of clients)
          for (const row of (await client.query<{ name: string }>('SELECT name FROM pg_prepared_statements'))
            .rows)
            names.add(row.name);
      } finally {
        for (const client of clients) client.release();
      }
      expect([...names]).toEqual(
        expect.arrayContaining(['reconcile_take_pages', 'reconcile_claim_listed', 'reconcile_pages_settled']),
      );
    },
  );
});
