/**
 * The outbox re-drive of POST /payouts, on both databases, in-process. The crash
 * is reproduced as its two halves: the request row committed `pending` (as POST /payouts does
 * before calling the partner) and the payout created at the partner with that key, its
 * `payout.created` webhook lost. Without the re-drive the row stays pending for ever and the app
 * never learns of the payout.
 */
import { randomUUID } from 'node:crypto';
import { PartnerPayoutsService } from '@partner-payments/nestjs';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { PartnerPayoutRequestEntity } from '@partner-payments/typeorm';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { payoutRequestFingerprint } from '../../../apps/reference-app/src/payouts/payouts.service';
import { appRequest, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { createFundedAccount, type FundedAccount } from '../../setup/funded-account.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(90_000);

const PAYOUT_ROUTE = 'POST /v1/virtual-accounts/:id/payout';
/** Short partner calls, so the grace period may be short too (it must exceed one full call). */
const ENV = { PARTNER_TIMEOUT_MS: '3000', PARTNER_MAX_RETRIES: '0', PAYOUT_REDRIVE_GRACE_SECONDS: '12' };
const PAST_GRACE_MS = 60_000;

describe.each(DATABASE_KINDS)('payout re-drive on %s', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let dbUrl: string;
  let account: FundedAccount;
  let amountSeq = 0;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor(kind, 'redrive');
    cleanup = db.cleanup;
    dbUrl = db.url;
    running = await startTestApp(db.url, ENV, sandbox);
    account = await createFundedAccount(running, 'redrive');
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const http = () => appRequest(running);
  const uow = () => running.app.get(PartnerUnitOfWork);
  /** A body no other test uses (its amount tells the payout apart at the partner). */
  const body = (overrides: Partial<{ virtual_account_id: string }> = {}) => ({
    virtual_account_id: account.virtualAccountId,
    recipient_id: account.recipientId,
    amount: `${++amountSeq}.25`,
    currency: 'USD',
    ...overrides,
  });
  /** The row POST /payouts commits before calling the partner, stored `ageMs` ago. */
  const insertPending = async (key: string, b: ReturnType<typeof body>, ageMs = PAST_GRACE_MS) => {
    const at = new Date(Date.now() - ageMs);
    await uow().run((m) =>
      m.insert(PartnerPayoutRequestEntity, {
        idempotencyKey: key,
        fingerprint: payoutRequestFingerprint(b),
        virtualAccountId: b.virtual_account_id,
        recipientId: b.recipient_id,
        amount: b.amount,
        currency: b.currency,
        state: 'pending',
        payoutId: null,
        lastError: null,
        createdAt: at,
        updatedAt: at,
      }),
    );
  };
  const request = (key: string) =>
    uow().run((m) => m.findOneOrFail(PartnerPayoutRequestEntity, { where: { idempotencyKey: key } }));
  const makeDue = (key: string) =>
    uow().run((m) =>
      m.update(PartnerPayoutRequestEntity, { idempotencyKey: key }, { nextAttemptAt: new Date(0) }),
    );
  const counters = () => sandbox.control.counters();
  const payoutCalls = async () => (await counters()).requests[PAYOUT_ROUTE] ?? 0;
  /** The partner's payouts of our user with this amount. */
  const atPartner = async (amount: string) =>
    (
      await running.app.get(PartnerPayoutsService).list({ user_id: account.userId, limit: 100 })
    ).payouts.filter((p) => p.amount === amount);
  const redrive = async () => (await http().post('/payouts/redrive/run').expect(200)).body;

  it('a payout created at the partner whose answer and webhook were lost is stored once; the caller’s retry gets it', async () => {
    const key = randomUUID();
    const b = body();
    await insertPending(key, b);
    await sandbox.control.dropNextWebhooks(1, 'payout.created');
    const payoutId = await account.partnerCreatePayout(b, key);
    await sandbox.control.flushWebhooks();
    const lost = (await sandbox.control.deliveries()).filter(
      (d) => d.outcome === 'dropped' && JSON.parse(d.body).data?.payout_id === payoutId,
    );
    expect(lost.map((d) => d.event)).toEqual(['payout.created']);
    expect(await uow().run((m) => m.count(PayoutEntity, { where: { payoutId } }))).toBe(0);
    const createdBefore = (await counters()).created.payouts;

    expect(await redrive()).toEqual({
      ran: true,
      resent: 1,
      created: 1,
      rejected: 0,
      retrying: 0,
      needsReview: 0,
    });

    const stored = await uow().run((m) => m.find(PayoutEntity, { where: { idempotencyKey: key } }));
    expect(stored.map((p) => [p.payoutId, p.amount, p.lastSource])).toEqual([[payoutId, b.amount, 'create']]);
    expect(await request(key)).toMatchObject({
      state: 'created',
      payoutId,
      attempts: 1,
      nextAttemptAt: null,
    });
    const retry = await http().post('/payouts').set('Idempotency-Key', key).send(b).expect(201);
    expect(retry.body.payout_id).toBe(payoutId);
    expect((await counters()).created.payouts).toBe(createdBefore);
    expect((await atPartner(b.amount)).map((p) => p.payoutId)).toEqual([payoutId]);
    // Nothing is left to re-send.
    expect(await redrive()).toMatchObject({ ran: true, resent: 0 });
  });

  it('leaves a request younger than the grace period alone (its answer may still be on its way)', async () => {
    const key = randomUUID();
    await insertPending(key, body(), 1000);
    const calls = await payoutCalls();
    expect(await redrive()).toMatchObject({ resent: 0 });
    expect(await payoutCalls()).toBe(calls);
    expect(await request(key)).toMatchObject({ state: 'pending', attempts: 0 });
    // Gone before it ages past the grace period and a later test's pass picks it up.
    await uow().run((m) => m.delete(PartnerPayoutRequestEntity, { idempotencyKey: key }));
  });

  it('a request the partner refuses is marked rejected with the reason', async () => {
    const key = randomUUID();
    await insertPending(key, body({ virtual_account_id: randomUUID() }));
    expect(await redrive()).toMatchObject({ resent: 1, created: 0, rejected: 1 });
    const row = await request(key);
    expect(row).toMatchObject({ state: 'rejected', payoutId: null, attempts: 1 });
    expect(row.lastError).toBeTruthy();
  });

  it('a 409 (the partner still works on the key) and a 503 are tried again later, with a growing backoff', async () => {
    const key = randomUUID();
    const b = body();
    await insertPending(key, b);
    const created = (await counters()).created.payouts;

    await sandbox.control.addFault({ kind: 'server_error', route: PAYOUT_ROUTE, status: 409, times: 1 });
    let before = Date.now();
    expect(await redrive()).toMatchObject({ resent: 1, retrying: 1, created: 0 });
    let row = await request(key);
    expect(row).toMatchObject({ state: 'pending', attempts: 1 });
    expect(row.lastError).toMatch(/409|process/i);
    const firstDelay = row.nextAttemptAt!.getTime() - before;
    expect(firstDelay).toBeGreaterThanOrEqual(55_000);
    expect(firstDelay).toBeLessThanOrEqual(65_000 + (Date.now() - before));
    // Not due yet: the next pass does not send it.
    const calls = await payoutCalls();
    expect(await redrive()).toMatchObject({ resent: 0 });
    expect(await payoutCalls()).toBe(calls);

    await makeDue(key);
    await sandbox.control.addFault({ kind: 'server_error', route: PAYOUT_ROUTE, status: 503, times: 1 });
    before = Date.now();
    expect(await redrive()).toMatchObject({ resent: 1, retrying: 1 });
    row = await request(key);
    expect(row).toMatchObject({ state: 'pending', attempts: 2 });
    const secondDelay = row.nextAttemptAt!.getTime() - before;
    expect(secondDelay).toBeGreaterThanOrEqual(115_000);
    expect(secondDelay).toBeLessThanOrEqual(125_000 + (Date.now() - before));

    await makeDue(key);
    expect(await redrive()).toMatchObject({ resent: 1, created: 1 });
    expect(await request(key)).toMatchObject({ state: 'created', attempts: 3 });
    expect((await counters()).created.payouts).toBe(created + 1);
    expect(await atPartner(b.amount)).toHaveLength(1);
  });

  it('past PAYOUT_REDRIVE_MAX_AGE_HOURS a request is not re-sent but left needs_review, and the caller’s retry is refused', async () => {
    const key = randomUUID();
    const b = body();
    await insertPending(key, b, 25 * 3_600_000);
    const calls = await payoutCalls();
    expect(await redrive()).toMatchObject({ resent: 0, needsReview: 1 });
    expect(await request(key)).toMatchObject({ state: 'needs_review', attempts: 0 });
    const retry = await http().post('/payouts').set('Idempotency-Key', key).send(b).expect(409);
    expect(retry.body).toMatchObject({ error: 'PayoutNeedsReview' });
    expect(await payoutCalls()).toBe(calls);
    const report = (await http().get('/payouts/redrive').expect(200)).body;
    expect(report.states.needs_review).toBeGreaterThanOrEqual(1);
    expect(report.needs_review.map((r: { idempotency_key: string }) => r.idempotency_key)).toContain(key);
  });

  it('two replicas running the job at once send each request once', async () => {
    const other = await startTestApp(dbUrl, ENV, sandbox);
    try {
      // Only this test's rows are pending: the counts below are theirs.
      expect(
        await uow().run((m) => m.count(PartnerPayoutRequestEntity, { where: { state: 'pending' } })),
      ).toBe(0);
      const rows = Array.from({ length: 6 }, () => ({ key: randomUUID(), b: body() }));
      for (const { key, b } of rows) await insertPending(key, b);
      const calls = await payoutCalls();
      const created = (await counters()).created.payouts;
      // Slow answers, so the two passes overlap.
      await sandbox.control.addFault({ kind: 'latency', route: PAYOUT_ROUTE, latencyMs: 200, times: 12 });
      const [a, c] = await Promise.all([
        redrive(),
        appRequest(other)
          .post('/payouts/redrive/run')
          .expect(200)
          .then((r) => r.body),
      ]);
      await sandbox.control.clearFaults();
      expect(a.resent + c.resent).toBe(6);
      expect(await payoutCalls()).toBe(calls + 6);
      expect((await counters()).created.payouts).toBe(created + 6);
      for (const { key } of rows) expect(await request(key)).toMatchObject({ state: 'created', attempts: 1 });
    } finally {
      await other.close();
    }
  });

  it('is an operator endpoint', async () => {
    await appRequest(running).post('/payouts/redrive/run').unset('authorization').expect(401);
  });
});
