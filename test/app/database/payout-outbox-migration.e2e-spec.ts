/**
 * An existing reference-app database upgrades in place: every payout_requests row, in every state,
 * moves into @partner-payments/typeorm's partner_payout_requests as stored (the memo lossless, the
 * fingerprint unchanged), the old table goes, and the package's outbox carries on with the rows:
 * a created key replays without a partner call, another body under a kept key is refused, a
 * needs_review key is not sent. It reverts, the rows moved back. SQLite file and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import {
  fromStoredText,
  partnerPayoutFingerprint,
  PartnerPayoutKeyReusedError,
  PartnerPayoutNeedsReviewError,
  PartnerPayoutOutbox,
  PartnerPayoutRequestEntity,
  PartnerUnitOfWork,
  toStoredText,
  type PartnerOutboxPayoutRequest,
} from '@partner-payments/typeorm';
import { placeholders, timestampParam } from '@partner-payments/typeorm/sql';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { buildDataSourceOptions, openDataSource } from '../../../apps/reference-app/src/app-data-source.util';
import { parseDatabaseUrl } from '../../../apps/reference-app/src/database/database-url.util';
import { MIGRATIONS } from '../../../apps/reference-app/src/database/migrations';
import { PayoutRequestsToPackage1765300000000 } from '../../../apps/reference-app/src/database/migrations/1765300000000-payout-requests-to-package.migration';
import { DATABASE_KINDS, databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

const STATES = ['pending', 'created', 'rejected', 'needs_review'] as const;
/** Memos the partner accepts and UTF-8 storage or PostgreSQL text would not keep as they are. */
const MEMOS = [null, 'rent', 'nul \u0000 lone \ud800 "q" \\', '\ud83d\ude00'] as const;
const VA = randomUUID();
const RECIPIENT = randomUUID();

interface OldRow {
  key: string;
  request: PartnerOutboxPayoutRequest;
  state: (typeof STATES)[number];
  memo: string | null;
  payoutId: string | null;
  lastError: string | null;
  attempts: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

const OLD_ROWS: OldRow[] = STATES.flatMap((state, s) =>
  MEMOS.map((memo, m) => {
    const request: PartnerOutboxPayoutRequest = {
      virtualAccountId: VA,
      body: {
        recipient_id: RECIPIENT,
        amount: `${s + 1}${m}.50`,
        currency: 'USD',
        ...(memo === null ? {} : { extra_info: { memo } }),
      },
    };
    return {
      key: randomUUID(),
      request,
      state,
      memo,
      payoutId: state === 'created' ? randomUUID() : null,
      lastError: state === 'rejected' || state === 'needs_review' ? `refused ${m}` : null,
      attempts: s + m,
      nextAttemptAt: state === 'pending' ? new Date(Date.UTC(2026, 10, 27, 12, m)) : null,
      // Recent: the outbox's maximum age must not be what sends a pending row to review here.
      createdAt: new Date(Date.now() - 3_600_000 + s * 60_000 + m * 1000),
    };
  }),
);

/** Columns of a row as compared before and after (timestamps as instants). */
const shape = (r: PartnerPayoutRequestEntity) => [
  r.idempotencyKey,
  r.fingerprint,
  r.virtualAccountId,
  r.recipientId,
  r.amount,
  r.currency,
  r.memo === null ? null : fromStoredText(r.memo),
  r.state,
  r.payoutId,
  r.lastError,
  r.attempts,
  r.nextAttemptAt?.toISOString() ?? null,
  r.createdAt.toISOString(),
];
const expected = (r: OldRow) => [
  r.key,
  partnerPayoutFingerprint(r.request),
  VA,
  RECIPIENT,
  r.request.body.amount,
  'USD',
  r.memo,
  r.state,
  r.payoutId,
  r.lastError,
  r.attempts,
  r.nextAttemptAt?.toISOString() ?? null,
  r.createdAt.toISOString(),
];

describe.each(DATABASE_KINDS)('payout_requests upgraded into the package’s outbox (%s)', (kind) => {
  it('moves every row as stored, drops the old table, the outbox carries on, and it reverts', async () => {
    const { url, cleanup } = await databaseUrlFor(kind, 'upgrade-outbox');
    const db = parseDatabaseUrl(url);
    const opened: DataSource[] = [];
    try {
      // The schema today's migrations made, before the package's payout table and the move.
      const before = new DataSource({
        ...buildDataSourceOptions(db),
        migrations: MIGRATIONS.filter(
          (m) =>
            m.name !== 'PartnerPayoutRequests1765210000000' && m !== PayoutRequestsToPackage1765300000000,
        ),
      } as DataSourceOptions);
      opened.push(await before.initialize());
      await before.runMigrations();
      const p = placeholders(kind, 14).join(', ');
      for (const r of OLD_ROWS)
        await before.query(
          `INSERT INTO payout_requests (idempotency_key, fingerprint, virtual_account_id, recipient_id, amount, currency, memo, state, payout_id, last_error, attempts, next_attempt_at, created_at, updated_at) VALUES (${p})`,
          [
            r.key,
            partnerPayoutFingerprint(r.request),
            VA,
            RECIPIENT,
            r.request.body.amount,
            'USD',
            r.memo === null ? null : toStoredText(r.memo),
            r.state,
            r.payoutId,
            r.lastError,
            r.attempts,
            r.nextAttemptAt && timestampParam(kind, r.nextAttemptAt),
            timestampParam(kind, r.createdAt),
            timestampParam(kind, r.createdAt),
          ],
        );
      await before.destroy();

      const after = await openDataSource(db);
      opened.push(after);
      expect(await after.showMigrations()).toBe(false);
      const runner = after.createQueryRunner();
      try {
        expect(await runner.hasTable('payout_requests')).toBe(false);
      } finally {
        await runner.release();
      }
      const rows = await after.getRepository(PartnerPayoutRequestEntity).find();
      const byKey = new Map(rows.map((r) => [r.idempotencyKey, shape(r)]));
      expect(rows).toHaveLength(OLD_ROWS.length);
      for (const r of OLD_ROWS) expect(byKey.get(r.key)).toEqual(expected(r));

      // The outbox on the upgraded table, no partner reachable: nothing below may call it.
      const uow = new PartnerUnitOfWork(after);
      const outbox = new PartnerPayoutOutbox(
        uow,
        { graceMs: 60_000, maxAgeMs: 86_400_000, batchSize: 50 },
        () => {
          throw new Error('the partner was called');
        },
      );
      const of = (state: OldRow['state'], memo: OldRow['memo']) =>
        OLD_ROWS.find((r) => r.state === state && r.memo === memo)!;
      for (const memo of MEMOS) {
        const done = of('created', memo);
        expect(await outbox.submit(done.key, done.request)).toEqual({
          outcome: 'already-created',
          payoutId: done.payoutId,
        });
        const review = of('needs_review', memo);
        await expect(outbox.submit(review.key, review.request)).rejects.toBeInstanceOf(
          PartnerPayoutNeedsReviewError,
        );
      }
      const pending = of('pending', MEMOS[2]);
      const other = {
        ...pending.request,
        body: { ...pending.request.body, extra_info: { memo: 'nul  lone' } },
      };
      await expect(outbox.submit(pending.key, other)).rejects.toEqual(
        new PartnerPayoutKeyReusedError(pending.key, 'extra_info.memo'),
      );
      expect(await outbox.countByState()).toEqual({ pending: 4, created: 4, rejected: 4, needs_review: 4 });

      // Back before the move: the old table again, every row in it, the package's table empty.
      await after.undoLastMigration({ transaction: 'each' });
      const back: Array<{ idempotency_key: string; memo: string | null; state: string }> = await after.query(
        'SELECT idempotency_key, memo, state FROM payout_requests',
      );
      expect(
        back.map((b) => [b.idempotency_key, b.memo === null ? null : fromStoredText(b.memo), b.state]).sort(),
      ).toEqual(OLD_ROWS.map((r) => [r.key, r.memo, r.state]).sort());
      expect(await after.getRepository(PartnerPayoutRequestEntity).count()).toBe(0);
      await after.runMigrations({ transaction: 'each' });
      expect(await after.getRepository(PartnerPayoutRequestEntity).count()).toBe(OLD_ROWS.length);
    } finally {
      for (const ds of opened.reverse()) if (ds.isInitialized) await ds.destroy();
      cleanup();
    }
  });
});
