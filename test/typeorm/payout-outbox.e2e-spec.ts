/**
 * PartnerPayoutOutbox in a user's own Nest app (payout-consumer.fixture.ts) against the sandbox,
 * on a SQLite file and on PostgreSQL. The crash is staged without killing a process: the sandbox
 * creates the payout and holds its answer (accepted_then_stall), the app's call is abandoned (its
 * timeout), and the app closes; a second app on the same database then re-drives. Counted at the
 * sandbox: payouts unknown to the app's own table, and payouts created twice.
 */
import { randomUUID } from 'node:crypto';
import { PartnerLocalValidationError } from '@partner-payments/nestjs';
import type { PartnerSandbox } from '@partner-payments/testing';
import {
  PartnerPayoutFailedError,
  PartnerPayoutKeyReusedError,
  PartnerPayoutNeedsReviewError,
  PartnerPayoutRequestEntity,
  partnerPayoutFingerprint,
  type PartnerOutboxPayoutRequest,
} from '@partner-payments/typeorm';
import { startTestSandbox } from '../setup/app.fixture';
import { createFundedAccount, partnerClientFor, type FundedAccount } from '../setup/funded-account.fixture';
import { LedgerPayoutEntity, startPayoutConsumer, type PayoutConsumer } from './payout-consumer.fixture';
import { PACKAGE_DATABASE_KINDS, packageLocationFor } from './typeorm-database.fixture';

jest.setTimeout(90_000);

const PAYOUT_ROUTE = 'POST /v1/virtual-accounts/:id/payout';
// The shortest grace the package accepts for the consumer's partner calls (1.5 s, no retries): 4 x 1.5 s.
const GRACE_MS = 6_000;
const MAX_AGE_MS = 3_600_000;

describe.each(PACKAGE_DATABASE_KINDS)('PartnerPayoutOutbox in a consumer app (%s)', (kind) => {
  let sandbox: PartnerSandbox;
  let location: string;
  let cleanup: () => void;
  let account: FundedAccount;
  let app: PayoutConsumer;
  let amountSeq = 0;
  const others: PayoutConsumer[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ location, cleanup } = await packageLocationFor(kind, 'payout-outbox'));
    account = await createFundedAccount(
      { client: partnerClientFor(sandbox), baseUrl: sandbox.baseUrl },
      'outbox',
    );
    app = await startPayoutConsumer(kind, location, sandbox, { graceMs: GRACE_MS, maxAgeMs: MAX_AGE_MS });
  });
  afterAll(async () => {
    for (const other of others) await other.close();
    await app?.close();
    await sandbox?.close();
    cleanup?.();
  });

  /** A request no other test uses: its amount tells its payouts apart at the partner. */
  const request = (memo?: string): PartnerOutboxPayoutRequest => ({
    virtualAccountId: account.virtualAccountId,
    body: {
      recipient_id: account.recipientId,
      amount: `${++amountSeq}.75`,
      currency: 'USD',
      ...(memo === undefined ? {} : { extra_info: { memo } }),
    },
  });
  const sends = async () => (await sandbox.control.counters()).requests[PAYOUT_ROUTE] ?? 0;
  const created = async () => (await sandbox.control.counters()).created.payouts;
  const row = (key: string, on = app) =>
    on.dataSource.getRepository(PartnerPayoutRequestEntity).findOneByOrFail({ idempotencyKey: key });
  const ledger = (on = app) => on.dataSource.getRepository(LedgerPayoutEntity).find();
  /** The partner's payouts of this account's user with `amount`. */
  const atPartner = async (amount: string) =>
    (await partnerClientFor(sandbox).payouts.list({ user_id: account.userId, limit: 100 })).payouts.filter(
      (p) => p.amount === amount,
    );
  const age = (key: string, ms: number, on = app) =>
    on.dataSource
      .getRepository(PartnerPayoutRequestEntity)
      .update({ idempotencyKey: key }, { createdAt: new Date(Date.now() - ms), nextAttemptAt: null });

  /** A row as the outbox left it `agoMs` ago, in `state`. */
  const stored = (key: string, r: PartnerOutboxPayoutRequest, state: 'pending' | 'rejected', agoMs: number) =>
    app.dataSource.getRepository(PartnerPayoutRequestEntity).insert({
      idempotencyKey: key,
      fingerprint: partnerPayoutFingerprint(r),
      virtualAccountId: r.virtualAccountId,
      recipientId: r.body.recipient_id,
      amount: r.body.amount,
      currency: r.body.currency,
      memo: null,
      state,
      payoutId: null,
      lastError: state === 'rejected' ? 'insufficient funds' : null,
      attempts: 3,
      nextAttemptAt: null,
      createdAt: new Date(Date.now() - agoMs),
      updatedAt: new Date(),
    });

  /** `pay` from an app that dies while the partner, having created the payout, holds its answer. */
  const payAndCrash = async (key: string, req: PartnerOutboxPayoutRequest) => {
    await sandbox.control.addFault({ kind: 'accepted_then_stall', route: PAYOUT_ROUTE, latencyMs: 20_000 });
    const crashed = await startPayoutConsumer(kind, location, sandbox, {
      graceMs: GRACE_MS,
      maxAgeMs: MAX_AGE_MS,
    });
    const abandoned = await crashed.ledger.pay(key, req).catch((e: unknown) => e);
    await crashed.close();
    await sandbox.control.clearFaults();
    return abandoned;
  };

  it('sends once with the key; the row and the user’s own write commit together; a replay sends nothing', async () => {
    const key = randomUUID();
    const req = request('rent \u0000 \ud800');
    const before = await sends();
    const first = await app.ledger.pay(key, req);
    expect(first.outcome).toBe('created');
    expect(await sends()).toBe(before + 1);
    expect(await row(key)).toMatchObject({ state: 'created', payoutId: first.payoutId, attempts: 0 });
    expect((await ledger()).filter((l) => l.idempotencyKey === key).map((l) => l.payoutId)).toEqual([
      first.payoutId,
    ]);
    // The exact memo reached the partner (the sandbox keeps it), lone surrogate and NUL included.
    expect((await partnerClientFor(sandbox).payouts.get(first.payoutId)).raw).toMatchObject({
      extra_info: { memo: 'rent \u0000 \ud800' },
    });

    expect(await app.ledger.pay(key, req)).toEqual({ outcome: 'already-created', payoutId: first.payoutId });
    const reused = await app.ledger
      .pay(key, { ...req, body: { ...req.body, amount: '9999.99' } })
      .catch((e: unknown) => e);
    expect(reused).toBeInstanceOf(PartnerPayoutKeyReusedError);
    expect(reused).toMatchObject({ field: 'amount' });
    // A key or field its column cannot hold: named, nothing stored, nothing sent.
    const long = 'k'.repeat(65);
    const refused = await app.ledger
      .pay(long, { ...req, body: { ...req.body, currency: 'DOLLARS-US' } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PartnerLocalValidationError);
    expect((refused as PartnerLocalValidationError).fieldErrors.map((f) => f.field)).toEqual([
      'idempotencyKey',
      'currency',
    ]);
    expect(
      await app.dataSource.getRepository(PartnerPayoutRequestEntity).countBy({ idempotencyKey: long }),
    ).toBe(0);
    expect(await sends()).toBe(before + 1);
  });

  it('two sends of one key answered at once (a retry beside the first call): onCreated runs once, with the created mark', async () => {
    const key = randomUUID();
    const req = request();
    const calls: string[] = [];
    const hooks = {
      onCreated: async (...args: Parameters<typeof app.ledger.onCreated>) => {
        calls.push(args[0].payoutId);
        await app.ledger.onCreated(...args);
      },
    };
    const results = await Promise.all([0, 1, 2].map(() => app.outbox.submit(key, req, hooks)));
    const [payout] = await atPartner(req.body.amount);
    expect((await atPartner(req.body.amount)).length).toBe(1);
    expect(results.map((r) => r.payoutId)).toEqual([payout.payoutId, payout.payoutId, payout.payoutId]);
    expect(calls).toEqual([payout.payoutId]);
    expect(await row(key)).toMatchObject({ state: 'created', payoutId: payout.payoutId });
  });

  it('a refusal marks the row rejected and is a typed failure with the partner’s status', async () => {
    const key = randomUUID();
    const req = { ...request(), body: { ...request().body, recipient_id: randomUUID() } };
    const failed = await app.ledger.pay(key, req).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(PartnerPayoutFailedError);
    expect((failed as PartnerPayoutFailedError).failure).toMatchObject({ kind: 'refused' });
    expect((failed as PartnerPayoutFailedError).failure.status).toBeGreaterThanOrEqual(400);
    expect((failed as PartnerPayoutFailedError).failure.status).toBeLessThan(500);
    expect(await row(key)).toMatchObject({ state: 'rejected' });
  });

  it('the user’s write failing rolls the created mark back: pending, then stored once by the re-drive', async () => {
    const key = randomUUID();
    const req = request();
    app.ledger.failNextWrite = true;
    await expect(app.ledger.pay(key, req)).rejects.toThrow('the ledger write failed');
    expect(await row(key)).toMatchObject({ state: 'pending', payoutId: null });
    expect((await ledger()).some((l) => l.idempotencyKey === key)).toBe(false);
    await age(key, GRACE_MS + 1_000);
    expect(await app.ledger.redrive()).toMatchObject({ resent: 1, created: 1 });
    const [payout] = await atPartner(req.body.amount);
    expect((await atPartner(req.body.amount)).length).toBe(1);
    expect(await row(key)).toMatchObject({ state: 'created', payoutId: payout.payoutId, attempts: 1 });
    expect((await ledger()).filter((l) => l.idempotencyKey === key).map((l) => l.payoutId)).toEqual([
      payout.payoutId,
    ]);
  });

  it('a crash while the partner holds the answer: after the re-drive 0 payouts unknown to the app, 0 duplicates', async () => {
    const key = randomUUID();
    const req = request();
    const createdBefore = await created();
    const abandoned = await payAndCrash(key, req);
    // The partner created it; the app never heard: its call timed out, its row is pending, its ledger empty.
    expect(abandoned).toBeInstanceOf(PartnerPayoutFailedError);
    expect((abandoned as PartnerPayoutFailedError).failure.kind).toBe('unknown-outcome');
    expect(await created()).toBe(createdBefore + 1);
    expect(await row(key)).toMatchObject({ state: 'pending' });
    expect((await ledger()).some((l) => l.idempotencyKey === key)).toBe(false);

    // The restarted app and a second replica re-drive at once: one of them sends the row.
    const replica = await startPayoutConsumer(kind, location, sandbox, {
      graceMs: GRACE_MS,
      maxAgeMs: MAX_AGE_MS,
    });
    others.push(replica);
    await age(key, GRACE_MS + 1_000);
    const passes = await Promise.all([app.ledger.redrive(), replica.ledger.redrive()]);
    expect(passes.reduce((n, p) => n + p.resent, 0)).toBe(1);
    expect(passes.reduce((n, p) => n + p.created, 0)).toBe(1);

    const known = new Set((await ledger()).map((l) => l.payoutId));
    const all = (await partnerClientFor(sandbox).payouts.list({ user_id: account.userId, limit: 100 }))
      .payouts;
    const settled = await app.dataSource.getRepository(PartnerPayoutRequestEntity).find();
    const createdKeys = new Set(settled.filter((r) => r.state === 'created').map((r) => r.payoutId));
    expect(all.filter((p) => createdKeys.has(p.payoutId) && !known.has(p.payoutId))).toEqual([]);
    expect(all.filter((p) => !known.has(p.payoutId)).map((p) => p.amount)).toEqual([]);
    expect((await atPartner(req.body.amount)).length).toBe(1);
    expect(await created()).toBe(createdBefore + 1);
    expect(await row(key)).toMatchObject({ state: 'created' });
  });

  it('a rejected request submitted again is pending while sent: a crash leaves it to the re-drive, none unknown', async () => {
    const key = randomUUID();
    const req = request();
    // Refused once (say, the account was short of funds); the caller submits it again later.
    await stored(key, req, 'rejected', 60_000);
    const abandoned = await payAndCrash(key, req);
    expect((abandoned as PartnerPayoutFailedError).failure.kind).toBe('unknown-outcome');
    expect((await atPartner(req.body.amount)).length).toBe(1);
    expect(await row(key)).toMatchObject({ state: 'pending' });

    await age(key, GRACE_MS + 1_000);
    expect(await app.ledger.redrive()).toMatchObject({ resent: 1, created: 1 });
    const [payout] = await atPartner(req.body.amount);
    expect(await row(key)).toMatchObject({ state: 'created', payoutId: payout.payoutId });
    expect((await ledger()).filter((l) => l.idempotencyKey === key).map((l) => l.payoutId)).toEqual([
      payout.payoutId,
    ]);
    expect((await atPartner(req.body.amount)).length).toBe(1);
  });

  it('a re-drive stops at its signal: the rows not yet sent stay unclaimed, due for the next pass', async () => {
    const keys = Array.from({ length: 8 }, () => randomUUID());
    const reqs = keys.map(() => request());
    for (const [i, key] of keys.entries()) await stored(key, reqs[i], 'pending', GRACE_MS + 60_000);
    const before = await sends();
    await sandbox.control.addFault({ kind: 'latency', route: PAYOUT_ROUTE, latencyMs: 800 });
    const stop = new AbortController();
    const pass = app.outbox.redrive({ onCreated: app.ledger.onCreated, signal: stop.signal });
    setTimeout(() => stop.abort(), 300);
    await expect(pass).rejects.toMatchObject({ name: 'AbortError' });
    await sandbox.control.clearFaults();
    const sent = (await sends()) - before;
    expect(sent).toBeLessThan(keys.length);
    const left = (await Promise.all(keys.map((k) => row(k)))).filter((r) => r.state === 'pending');
    expect(left.length).toBe(keys.length - sent);
    for (const r of left) expect(r).toMatchObject({ attempts: 3, nextAttemptAt: null });

    expect(await app.ledger.redrive()).toMatchObject({ created: keys.length - sent });
    for (const key of keys) expect(await row(key)).toMatchObject({ state: 'created' });
  });

  it('a re-drive answered 429 stops sending until the Retry-After has passed', async () => {
    const keys = Array.from({ length: 8 }, () => randomUUID());
    const reqs = keys.map(() => request());
    for (const [i, key] of keys.entries()) await stored(key, reqs[i], 'pending', GRACE_MS + 60_000);
    const before = await sends();
    await sandbox.control.addFault({
      kind: 'rate_limit',
      route: PAYOUT_ROUTE,
      times: 100,
      retryAfterSeconds: 3,
    });
    const throttled = await app.ledger.redrive();
    const sent = (await sends()) - before;
    expect(sent).toBeLessThan(keys.length);
    expect(throttled).toMatchObject({ created: 0, retrying: sent });
    const rows = await Promise.all(keys.map((k) => row(k)));
    const tried = rows.filter((r) => r.attempts === 4);
    expect(tried.length).toBe(sent);
    for (const r of tried) expect(r.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 1_500);
    // Within the Retry-After a pass sends nothing, even rows due.
    for (const key of keys) await age(key, GRACE_MS + 60_000);
    expect(await app.ledger.redrive()).toMatchObject({ resent: 0 });
    expect(await sends()).toBe(before + sent);

    await sandbox.control.clearFaults();
    await new Promise((r) => setTimeout(r, 3_500));
    for (const key of keys) await age(key, GRACE_MS + 60_000);
    expect(await app.ledger.redrive()).toMatchObject({ created: keys.length });
  });

  it('past the maximum age: needs_review, never sent; listed; an operator resolves it both ways', async () => {
    const stale = randomUUID();
    const gone = randomUUID();
    const req = request();
    const lost = request();
    // Pending rows whose answers were lost long ago; one of them the partner did create.
    const payoutId = await account.partnerCreatePayout(
      { virtual_account_id: req.virtualAccountId, ...req.body },
      stale,
    );
    for (const [key, r] of [
      [stale, req],
      [gone, lost],
    ] as const) {
      await stored(key, r, 'pending', MAX_AGE_MS + 60_000);
    }
    const before = await sends();
    expect(await app.ledger.redrive()).toMatchObject({ resent: 0, needsReview: 2 });
    expect(await sends()).toBe(before);
    expect((await app.outbox.needsReview()).map((r) => r.idempotencyKey).sort()).toEqual(
      [stale, gone].sort(),
    );
    expect(await app.outbox.countByState()).toMatchObject({ needs_review: 2 });

    expect(await app.ledger.redrive()).toMatchObject({ resent: 0, needsReview: 0 });
    await expect(app.ledger.pay(stale, req)).rejects.toBeInstanceOf(PartnerPayoutNeedsReviewError);
    expect(await sends()).toBe(before);

    // A malformed finding is refused naming the field, before the partner is asked.
    for (const [finding, field] of [
      [null, 'resolution'],
      [{ payoutId: null, reason: ' ' }, 'reason'],
      [{ payoutId: 42 }, 'payoutId'],
    ] as const)
      await expect(app.outbox.resolve(gone, finding as never)).rejects.toMatchObject({
        name: 'PartnerLocalValidationError',
        fieldErrors: [expect.objectContaining({ field })],
      });
    expect(await row(gone)).toMatchObject({ state: 'needs_review' });

    // Another request's payout (a typo in the id) is refused, naming what differs; nothing stored.
    const mismatch = await app.outbox
      .resolve(gone, { payoutId }, { onCreated: app.ledger.onCreated })
      .catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(PartnerLocalValidationError);
    expect((mismatch as PartnerLocalValidationError).fieldErrors).toEqual([
      { field: 'payoutId', message: expect.stringContaining('amount') },
    ]);
    expect(await row(gone)).toMatchObject({ state: 'needs_review', payoutId: null });
    expect((await ledger()).some((l) => l.idempotencyKey === gone)).toBe(false);

    await app.outbox.resolve(stale, { payoutId }, { onCreated: app.ledger.onCreated });
    // The payout now stands for `stale`: no other request may take it.
    await expect(app.outbox.resolve(gone, { payoutId })).rejects.toBeInstanceOf(PartnerLocalValidationError);
    await app.outbox.resolve(gone, { payoutId: null, reason: 'not at the partner' });
    expect(await row(stale)).toMatchObject({ state: 'created', payoutId });
    expect(await row(gone)).toMatchObject({
      state: 'rejected',
      lastError: 'resolved by an operator: not at the partner',
    });
    expect((await ledger()).filter((l) => l.idempotencyKey === stale).map((l) => l.payoutId)).toEqual([
      payoutId,
    ]);
    expect(await app.outbox.needsReview()).toEqual([]);
    await expect(app.outbox.resolve(gone, { payoutId: null, reason: 'again' })).rejects.toMatchObject({
      name: 'PartnerPayoutStateError',
    });
  });
});
