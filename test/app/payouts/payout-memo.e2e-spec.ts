/**
 * extra_info.memo on POST /payouts, on both databases, against the sandbox over real sockets. The
 * partner requires it on a WIRE payout from an account at the ACT bank (evidence §6 [T1
 * REVISION-DOCS §4]; `bank_d` in the sandbox) and holds it to 255 characters (evidence §6 [T1
 * ExecutePayoutService]). The app used to refuse the field (400 "property extra_info should not
 * exist"), so such a payout could not be made at all; the memo must also survive a crash: the
 * re-drive re-sends the stored request, and a body without it under the same key is another
 * request to the partner.
 */
import { randomUUID } from 'node:crypto';
import { PartnerPayoutsService, PartnerVirtualAccountsService } from '@partner-payments/nestjs';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { PartnerPayoutRequestEntity } from '@partner-payments/typeorm';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import {
  payoutRequestFingerprint,
  storedMemo,
} from '../../../apps/reference-app/src/payouts/payouts.service';
import { appRequest, CapturingLogger, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { createFundedAccount, type FundedAccount } from '../../setup/funded-account.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(90_000);

const PAYOUT_ROUTE = 'POST /v1/virtual-accounts/:id/payout';
/** Short partner calls and no client retry, so a lost answer is the caller's 502 and the grace period may be short. */
const ENV = {
  PARTNER_TIMEOUT_MS: '3000',
  PARTNER_MAX_RETRIES: '0',
  PAYOUT_REDRIVE_GRACE_SECONDS: '12',
  LOG_LEVEL: 'verbose',
};
const PAST_GRACE_MS = 60_000;

/**
 * Free text as a user may type it, with what the databases do not keep as sent (U+0000 on
 * PostgreSQL; a lone surrogate, which UTF-8 storage turns into U+FFFD), so the re-drive's re-send
 * is compared with the first send byte for byte. Each test's memos carry their own marker, looked
 * for in every log line at the end.
 */
const MARKER = 'memo-marker-7c1e';
const memoText = (tag: string) => `${MARKER} ${tag}: "Rent" \\ März 🚀 \u0000 \ud800 end`;

describe.each(DATABASE_KINDS)('POST /payouts with extra_info.memo on %s', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let account: FundedAccount;
  /** A virtual account of the same user at the ACT bank, funded; the account's WIRE recipient pays from it. */
  let actAccountId: string;
  const logger = new CapturingLogger();
  const answers: string[] = [];
  let amountSeq = 0;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor(kind, 'memo');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, ENV, sandbox, { logger });
    account = await createFundedAccount(running, 'memo');
    const va = await running.app
      .get(PartnerVirtualAccountsService)
      .create({ user_id: account.userId, type: 'US_BANK', bank: 'bank_d' });
    actAccountId = String(va.virtual_account_id ?? va.id);
    // evidence §5: the ACT account shows PENDING-ACT-ACCOUNT until provisioned; the control opens and funds it.
    await sandbox.control.fundVirtualAccount(actAccountId, '1000000.00');
    await sandbox.control.flushWebhooks();
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const uow = () => running.app.get(PartnerUnitOfWork);
  /** POST /payouts; every answer is kept for the check that none carries a memo. */
  const post = async (key: string, body: object) => {
    const res = await appRequest(running).post('/payouts').set('Idempotency-Key', key).send(body);
    answers.push(JSON.stringify(res.body));
    return res;
  };
  /** A body from the ACT account (its amount tells the payout apart at the partner). */
  const actBody = (extra: object = {}) => ({
    virtual_account_id: actAccountId,
    recipient_id: account.recipientId,
    amount: `${++amountSeq}.10`,
    currency: 'USD',
    ...extra,
  });
  const request = (key: string) =>
    uow().run((m) => m.findOne(PartnerPayoutRequestEntity, { where: { idempotencyKey: key } }));
  /** The partner's log of the payout creates sent with this key. */
  const sendsOf = async (key: string) =>
    (await sandbox.control.requestLog()).filter(
      (e) => e.route === PAYOUT_ROUTE && e.headers['idempotency-key'] === key,
    );
  const payoutSends = async () => (await sandbox.control.counters()).requests[PAYOUT_ROUTE] ?? 0;
  /** The memo the partner holds on the payout (GET /v1/payouts/{id}, evidence §6). */
  const memoAtPartner = async (payoutId: string) => {
    const raw = (await running.app.get(PartnerPayoutsService).get(payoutId)).raw;
    return { memo: raw.memo, extra: (raw.extra_info as { memo?: unknown } | undefined)?.memo };
  };
  const redrive = async () => {
    const res = await appRequest(running).post('/payouts/redrive/run').expect(200);
    return res.body as Record<string, unknown>;
  };
  /** Past the grace period, due: what a request left pending by a crash looks like a while later. */
  const agePending = (key: string) => {
    const at = new Date(Date.now() - PAST_GRACE_MS);
    return uow().run((m) =>
      m.update(PartnerPayoutRequestEntity, { idempotencyKey: key }, { createdAt: at, nextAttemptAt: null }),
    );
  };

  it('creates a WIRE payout from an ACT-bank account with a memo; the partner receives it; the app answers without it', async () => {
    const key = randomUUID();
    const memo = memoText('created');
    const created = await post(key, actBody({ extra_info: { memo } }));
    expect(created.status).toBe(201);
    const payoutId = created.body.payout_id as string;
    expect(created.body).toMatchObject({ status: 'CREATED', virtual_account_id: actAccountId });
    expect(await sendsOf(key)).toHaveLength(1);
    expect(await memoAtPartner(payoutId)).toEqual({ memo, extra: memo });
    // Stored with the request (for a re-send), never returned: neither here nor by GET /payouts/:id.
    expect((await request(key))?.state).toBe('created');
    const read = await appRequest(running).get(`/payouts/${payoutId}`).expect(200);
    answers.push(JSON.stringify(read.body));
    for (const body of [created.body, read.body]) {
      expect(Object.keys(body)).not.toEqual(expect.arrayContaining(['memo']));
      expect(body).not.toHaveProperty('extra_info');
      expect(JSON.stringify(body)).not.toContain(MARKER);
    }
  });

  it('without a memo the partner refuses it (400 naming extra_info.memo): sent once, the request rejected, never re-sent', async () => {
    const key = randomUUID();
    const created = (await sandbox.control.counters()).created.payouts;
    const refused = await post(key, actBody());
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'PartnerRefused' });
    expect(JSON.stringify(refused.body.message)).toContain('extra_info.memo');
    expect(await request(key)).toMatchObject({ state: 'rejected', payoutId: null, memo: null });
    // The re-drive sends pending requests only: even past the grace period this one stays as it is.
    await agePending(key);
    expect(await redrive()).toMatchObject({ ran: true, resent: 0 });
    expect(await sendsOf(key)).toHaveLength(1);
    expect((await sandbox.control.counters()).created.payouts).toBe(created);
    // The key is bound to its body: the corrected request (with a memo) takes a new key.
    expect((await post(key, { ...actBody(), extra_info: { memo: memoText('late') } })).status).toBe(422);
    expect(await sendsOf(key)).toHaveLength(1);
  });

  it.each([
    [
      'a memo of 256 UTF-16 code units (128 emoji, 128 characters to class-validator)',
      { memo: '🚀'.repeat(128) },
      'extra_info.memo',
    ],
    ['a memo of 256 ASCII characters', { memo: 'm'.repeat(256) }, 'extra_info.memo'],
    ['an empty memo', { memo: '' }, 'extra_info.memo'],
    ['a null memo', { memo: null }, 'extra_info.memo'],
    ['a number as memo', { memo: 42 }, 'extra_info.memo'],
    [
      'internal_notes (not accepted by the app)',
      { memo: 'ok', internal_notes: 'x' },
      'extra_info.property internal_notes',
    ],
    ['an unknown key', { memo: 'ok', surprise: 1 }, 'extra_info.property surprise'],
    ['null', null, 'extra_info'],
    ['a string', 'memo', 'extra_info'],
    ['an array', [{ memo: 'ok' }], 'extra_info'],
  ])(
    'refuses %s in extra_info with a 400 naming the field, before anything is stored or sent',
    async (_what, extra, field) => {
      const key = randomUUID();
      const sends = await payoutSends();
      const res = await post(key, actBody({ extra_info: extra }));
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain(field);
      expect(await request(key)).toBeNull();
      expect(await payoutSends()).toBe(sends);
    },
  );

  it('accepts a memo of exactly 255 UTF-16 code units (the module’s count), and extra_info without a memo as no memo', async () => {
    const memo = `${'🚀'.repeat(127)}a`;
    expect(memo.length).toBe(255);
    const key = randomUUID();
    const res = await post(key, actBody({ extra_info: { memo } }));
    expect(res.status).toBe(201);
    expect(await memoAtPartner(res.body.payout_id)).toMatchObject({ memo });

    // From the bank_a account (no memo required there): `{}` is the request without a memo.
    const plainKey = randomUUID();
    const plain = {
      virtual_account_id: account.virtualAccountId,
      recipient_id: account.recipientId,
      amount: `${++amountSeq}.20`,
      currency: 'USD',
    };
    const first = await post(plainKey, { ...plain, extra_info: {} });
    expect(first.status).toBe(201);
    expect(await request(plainKey)).toMatchObject({ memo: null });
    const again = await post(plainKey, plain);
    expect(again.status).toBe(201);
    expect(again.body.payout_id).toBe(first.body.payout_id);
    expect(await sendsOf(plainKey)).toHaveLength(1);
  });

  it('the same key with the same memo replays the payout; with another memo, or none, it is the local 422', async () => {
    const key = randomUUID();
    const body = actBody({ extra_info: { memo: memoText('replay') } });
    const first = await post(key, body);
    expect(first.status).toBe(201);
    const replay = await post(key, body);
    expect(replay.status).toBe(201);
    expect(replay.body.payout_id).toBe(first.body.payout_id);
    const sends = await payoutSends();
    for (const other of [
      { ...body, extra_info: { memo: memoText('other') } },
      { ...body, extra_info: { memo: `${memoText('replay')} ` } },
      { ...body, extra_info: undefined },
    ]) {
      const conflict = await post(key, other);
      expect(conflict.status).toBe(422);
      expect(conflict.body.message).toContain('Idempotency-Key');
    }
    expect(await payoutSends()).toBe(sends);
    expect(await sendsOf(key)).toHaveLength(1);
  });

  it('after a crash (the partner created it, the answer and the webhook lost) the re-drive re-sends the same body, memo included', async () => {
    const key = randomUUID();
    const memo = memoText('redrive');
    const body = actBody({ extra_info: { memo } });
    const before = await sandbox.control.counters();
    // The partner does the work and the connection drops before the app hears the answer; the
    // payout.created webhook is lost too (spec 6.1.4: never re-sent).
    await sandbox.control.dropNextWebhooks(1, 'payout.created');
    await sandbox.control.addFault({ kind: 'accepted_then_reset', route: PAYOUT_ROUTE, times: 1 });
    const lost = await post(key, body);
    expect(lost.status).toBe(502);
    await sandbox.control.flushWebhooks();
    expect(await request(key)).toMatchObject({ state: 'pending', payoutId: null });
    expect((await sandbox.control.counters()).created.payouts).toBe(before.created.payouts + 1);

    await agePending(key);
    expect(await redrive()).toMatchObject({ ran: true, resent: 1, created: 1, retrying: 0, rejected: 0 });

    // The re-send is byte for byte the first send under the same key: the partner replayed its
    // answer (a body differing under a used key would be its 409 IDEMPOTENCY_CONFLICT).
    const sends = await sendsOf(key);
    expect(sends).toHaveLength(2);
    expect(sends[1].bodySha256).toBe(sends[0].bodySha256);
    const after = await sandbox.control.counters();
    expect(after.idempotentReplays).toBe(before.idempotentReplays + 1);
    expect(after.idempotencyKeyReuses).toBe(before.idempotencyKeyReuses);
    expect(after.created.payouts).toBe(before.created.payouts + 1);
    const row = await request(key);
    expect(row).toMatchObject({ state: 'created', attempts: 1 });
    const stored = await uow().run((m) => m.find(PayoutEntity, { where: { idempotencyKey: key } }));
    expect(stored.map((p) => p.payoutId)).toEqual([row!.payoutId]);
    expect(await memoAtPartner(row!.payoutId!)).toEqual({ memo, extra: memo });
    // The caller's retry gets that payout, with no further send.
    const retry = await post(key, body);
    expect(retry.status).toBe(201);
    expect(retry.body.payout_id).toBe(row!.payoutId);
    expect(await sendsOf(key)).toHaveLength(2);
  });

  it('no log line and no answer of the app carries a memo (LOG_LEVEL=verbose), the operator report included', async () => {
    // A request with a memo left pending past PAYOUT_REDRIVE_MAX_AGE_HOURS: listed for an operator, logged as an error.
    const key = randomUUID();
    const body = actBody({ extra_info: { memo: memoText('review') } });
    const at = new Date(Date.now() - 25 * 3_600_000);
    await uow().run((m) =>
      m.insert(PartnerPayoutRequestEntity, {
        idempotencyKey: key,
        fingerprint: payoutRequestFingerprint(body),
        virtualAccountId: body.virtual_account_id,
        recipientId: body.recipient_id,
        amount: body.amount,
        currency: body.currency,
        memo: storedMemo(body),
        state: 'pending',
        payoutId: null,
        lastError: null,
        createdAt: at,
        updatedAt: at,
      }),
    );
    expect(await redrive()).toMatchObject({ resent: 0, needsReview: 1 });
    const report = await appRequest(running).get('/payouts/redrive').expect(200);
    expect(report.body.needs_review.map((r: { idempotency_key: string }) => r.idempotency_key)).toContain(
      key,
    );
    answers.push(JSON.stringify(report.body));
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.filter((l) => l.includes(MARKER) || l.includes('🚀'))).toEqual([]);
    expect(answers.filter((a) => a.includes(MARKER) || a.includes('🚀'))).toEqual([]);
  });
});
