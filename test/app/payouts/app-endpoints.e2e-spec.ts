import { randomUUID } from 'node:crypto';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { PartnerPayoutRequestEntity } from '@partner-payments/typeorm';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { payoutRequestFingerprint } from '../../../apps/reference-app/src/payouts/payouts.service';
import { appRequest, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';
import { createFundedAccount, type FundedAccount } from '../../setup/funded-account.fixture';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

describe('reference app endpoints (SQLite file)', () => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let account: FundedAccount;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'endpoints');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox);
    account = await createFundedAccount(running);
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const http = () => appRequest(running);
  const body = () => ({
    virtual_account_id: account.virtualAccountId,
    recipient_id: account.recipientId,
    amount: '100.00',
    currency: 'USD',
  });
  const partnerPayoutsCreated = async () => (await sandbox.control.counters()).created.payouts;

  it('GET /health/ready reports the database, the partner and the version pinned at start', async () => {
    const res = await http().get('/health/ready').expect(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      details: {
        database: { status: 'up' },
        partner: { status: 'up', apiVersion: { configured: '2026-04-14', pinned: '2026-04-14' } },
        inbox: { status: 'up', oldestPendingSeconds: 0 },
      },
    });
  });

  it.each([
    [{ amount: 100 }, 'amount'],
    [{ amount: '10.001' }, 'amount'],
    [{ amount: '0.00' }, 'amount'],
    [{ currency: 'usd' }, 'currency'],
    [{ recipient_id: '' }, 'recipient_id'],
    [{ virtual_account_id: undefined }, 'virtual_account_id'],
    [{ surprise: 'field' }, 'surprise'],
  ])('POST /payouts answers 400 naming the field for %j', async (patch, field) => {
    const before = await partnerPayoutsCreated();
    const res = await http()
      .post('/payouts')
      .set('Idempotency-Key', randomUUID())
      .send({ ...body(), ...patch })
      .expect(400);
    expect(JSON.stringify(res.body.message)).toContain(field);
    expect(await partnerPayoutsCreated()).toBe(before); // nothing was sent
  });

  it('POST /payouts refuses a missing or malformed Idempotency-Key, naming the header', async () => {
    for (const key of [undefined, 'not-a-uuid']) {
      const req = http().post('/payouts');
      const res = await (key ? req.set('Idempotency-Key', key) : req).send(body()).expect(400);
      expect(JSON.stringify(res.body.message)).toContain('Idempotency-Key');
    }
  });

  it('POST /payouts creates one payout at the partner, and a replay of the key returns it without a second', async () => {
    const key = randomUUID();
    const before = await partnerPayoutsCreated();
    const first = await http().post('/payouts').set('Idempotency-Key', key).send(body()).expect(201);
    expect(first.body).toMatchObject({
      status: 'CREATED',
      amount: '100.00',
      currency: 'USD',
      idempotency_key: key,
      last_source: 'create',
      virtual_account_id: account.virtualAccountId,
    });
    const again = await http().post('/payouts').set('Idempotency-Key', key).send(body()).expect(201);
    expect(again.body.payout_id).toBe(first.body.payout_id);
    expect(await partnerPayoutsCreated()).toBe(before + 1);

    const read = await http().get(`/payouts/${first.body.payout_id}`).expect(200);
    expect(read.body).toMatchObject({ payout_id: first.body.payout_id, status: 'CREATED' });
  });

  it('refuses the same Idempotency-Key with another body (422), creating nothing', async () => {
    const key = randomUUID();
    await http().post('/payouts').set('Idempotency-Key', key).send(body()).expect(201);
    const before = await partnerPayoutsCreated();
    await http()
      .post('/payouts')
      .set('Idempotency-Key', key)
      .send({ ...body(), amount: '999.00' })
      .expect(422);
    expect(await partnerPayoutsCreated()).toBe(before);
  });

  it('stores the Idempotency-Key before the partner answers', async () => {
    await sandbox.control.addFault({
      kind: 'latency',
      route: 'POST /v1/virtual-accounts/:id/payout',
      latencyMs: 3000,
      times: 1,
    });
    const key = randomUUID();
    const started = Date.now();
    const pending = http()
      .post('/payouts')
      .set('Idempotency-Key', key)
      .send(body())
      .then((r) => r);
    // Polled for 2 s, well inside the partner's 3 s answer (a fixed 150 ms against 400 ms was a race
    // on a loaded machine): a key stored only after the answer is not there yet when this gives up.
    const uow = running.app.get(PartnerUnitOfWork);
    const stored = () =>
      uow.run((m) => m.findOne(PartnerPayoutRequestEntity, { where: { idempotencyKey: key } }));
    let row = await stored();
    while (!row && Date.now() - started < 2000) {
      await new Promise((r) => setTimeout(r, 25));
      row = await stored();
    }
    expect(row).toMatchObject({ state: 'pending', payoutId: null });
    const res = await pending;
    expect(res.status).toBe(201);
    expect(
      await uow.run((m) => m.findOne(PartnerPayoutRequestEntity, { where: { idempotencyKey: key } })),
    ).toMatchObject({ state: 'created', payoutId: res.body.payout_id });
  });

  it('a retry after a crash (key stored, partner created the payout, we never stored it) returns that payout, not a second one', async () => {
    const key = randomUUID();
    // The crash: the request row was committed and the partner created the payout with our key...
    const uow = running.app.get(PartnerUnitOfWork);
    const now = new Date();
    await uow.run((m) =>
      m.insert(PartnerPayoutRequestEntity, {
        idempotencyKey: key,
        fingerprint: payoutRequestFingerprint(body()),
        ...snake(body()),
        state: 'pending',
        payoutId: null,
        lastError: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
    const atPartner = await account.partnerCreatePayout(body(), key);
    const before = await partnerPayoutsCreated();
    // ...then the client retries with the same key.
    const res = await http().post('/payouts').set('Idempotency-Key', key).send(body()).expect(201);
    expect(res.body.payout_id).toBe(atPartner);
    expect(await partnerPayoutsCreated()).toBe(before);
  });

  it('the partner created the payout but its answer was lost: the same key yields that payout, one at the partner', async () => {
    const key = randomUUID();
    const before = await partnerPayoutsCreated();
    // The partner does the work, then the connection drops before we hear the answer.
    await sandbox.control.addFault({
      kind: 'accepted_then_reset',
      route: 'POST /v1/virtual-accounts/:id/payout',
      times: 1,
    });
    const first = await http().post('/payouts').set('Idempotency-Key', key).send(body());
    // Either the client's own retry (same key) got the replay, or the caller is told to retry.
    expect([201, 502]).toContain(first.status);
    expect(await partnerPayoutsCreated()).toBe(before + 1);
    const again = await http().post('/payouts').set('Idempotency-Key', key).send(body()).expect(201);
    if (first.status === 201) expect(again.body.payout_id).toBe(first.body.payout_id);
    expect(await partnerPayoutsCreated()).toBe(before + 1);
    expect((await sandbox.control.counters()).idempotentReplays).toBeGreaterThan(0);
  });

  it('answers 502 when the partner keeps failing, keeps the key pending, and the retry creates exactly one payout', async () => {
    const key = randomUUID();
    const before = await partnerPayoutsCreated();
    // Every attempt of this call (first + the client's retries) fails with a 503.
    await sandbox.control.addFault({
      kind: 'server_error',
      route: 'POST /v1/virtual-accounts/:id/payout',
      status: 503,
      times: 10,
    });
    const failed = await http().post('/payouts').set('Idempotency-Key', key).send(body()).expect(502);
    expect(failed.body.message).toContain('same Idempotency-Key');
    await sandbox.control.clearFaults();
    const uow = running.app.get(PartnerUnitOfWork);
    expect(
      await uow.run((m) => m.findOne(PartnerPayoutRequestEntity, { where: { idempotencyKey: key } })),
    ).toMatchObject({ state: 'pending' });
    const retried = await http().post('/payouts').set('Idempotency-Key', key).send(body()).expect(201);
    expect(await partnerPayoutsCreated()).toBe(before + 1);
    await http().post('/payouts').set('Idempotency-Key', key).send(body()).expect(201);
    expect(await partnerPayoutsCreated()).toBe(before + 1);
    expect(retried.body.idempotency_key).toBe(key);
  });

  it('concurrent identical requests create one payout at the partner; every success answers it', async () => {
    // Slow the partner so the requests overlap while the first is still in flight there.
    await sandbox.control.addFault({
      kind: 'latency',
      route: 'POST /v1/virtual-accounts/:id/payout',
      latencyMs: 300,
      times: 5,
    });
    const key = randomUUID();
    const before = await partnerPayoutsCreated();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => http().post('/payouts').set('Idempotency-Key', key).send(body())),
    );
    await sandbox.control.clearFaults();
    expect(await partnerPayoutsCreated()).toBe(before + 1);
    const ok = answers.filter((r) => r.status === 201);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    // The others were told the key is in flight (409), never a refusal that sticks to the key.
    expect(answers.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const ids = new Set(ok.map((r) => r.body.payout_id));
    expect(ids.size).toBe(1);
    const uow = running.app.get(PartnerUnitOfWork);
    expect(
      await uow.run((m) => m.findOne(PartnerPayoutRequestEntity, { where: { idempotencyKey: key } })),
    ).toMatchObject({ state: 'created', payoutId: [...ids][0] });
    const replay = await http().post('/payouts').set('Idempotency-Key', key).send(body()).expect(201);
    expect(replay.body.payout_id).toBe([...ids][0]);
    expect(await partnerPayoutsCreated()).toBe(before + 1);
  });

  it('maps a partner refusal: 404 passes through and refuses the key; 403 is a 502 (our account, not the request)', async () => {
    const uow = running.app.get(PartnerUnitOfWork);
    const before = await partnerPayoutsCreated();
    const unknownAccount = randomUUID();
    const key = randomUUID();
    const notFound = await http()
      .post('/payouts')
      .set('Idempotency-Key', key)
      .send({ ...body(), virtual_account_id: unknownAccount })
      .expect(404);
    expect(notFound.body).toMatchObject({ error: 'PartnerRefused' });
    expect(
      await uow.run((m) => m.findOne(PartnerPayoutRequestEntity, { where: { idempotencyKey: key } })),
    ).toMatchObject({ state: 'rejected', payoutId: null });

    await sandbox.control.addFault({
      kind: 'server_error',
      route: 'POST /v1/virtual-accounts/:id/payout',
      status: 403,
      times: 1,
    });
    const forbiddenKey = randomUUID();
    const forbidden = await http()
      .post('/payouts')
      .set('Idempotency-Key', forbiddenKey)
      .send(body())
      .expect(502);
    expect(forbidden.body.message).toContain('403');
    expect(forbidden.body.message).toContain('configuration');
    expect(await partnerPayoutsCreated()).toBe(before);
    // Once the account is fixed, the same key goes through, exactly once.
    await http().post('/payouts').set('Idempotency-Key', forbiddenKey).send(body()).expect(201);
    expect(await partnerPayoutsCreated()).toBe(before + 1);
  });

  it('a partner 409 (the key still in flight there) answers 409 and leaves the key pending: the retry gets the payout', async () => {
    const uow = running.app.get(PartnerUnitOfWork);
    const before = await partnerPayoutsCreated();
    await sandbox.control.addFault({
      kind: 'server_error',
      route: 'POST /v1/virtual-accounts/:id/payout',
      status: 409,
      times: 1,
    });
    const key = randomUUID();
    const busy = await http().post('/payouts').set('Idempotency-Key', key).send(body()).expect(409);
    expect(busy.body.message).toContain('same Idempotency-Key');
    expect(
      await uow.run((m) => m.findOne(PartnerPayoutRequestEntity, { where: { idempotencyKey: key } })),
    ).toMatchObject({ state: 'pending' });
    const retried = await http().post('/payouts').set('Idempotency-Key', key).send(body()).expect(201);
    expect(retried.body.idempotency_key).toBe(key);
    expect(await partnerPayoutsCreated()).toBe(before + 1);
  });

  it('answers 400 naming the field for an id that is not a UUID, before the partner (which would answer 403)', async () => {
    const before = await partnerPayoutsCreated();
    const res = await http()
      .post('/payouts')
      .set('Idempotency-Key', randomUUID())
      .send({ ...body(), virtual_account_id: 'va_123' })
      .expect(400);
    expect(JSON.stringify(res.body.message)).toContain('virtual_account_id');
    expect(await partnerPayoutsCreated()).toBe(before);
  });

  it('GET /payouts/:id answers 404 for a payout it does not know', async () => {
    await http().get(`/payouts/${randomUUID()}`).expect(404);
  });

  it('POST /reconciliation/run and POST /versioning/pin run their jobs and answer their summaries', async () => {
    const rec = await http().post('/reconciliation/run').expect(200);
    expect(rec.body).toMatchObject({ ran: true, failed: 0 });
    expect(rec.body.checked).toBeGreaterThan(0);
    const pin = await http().post('/versioning/pin').expect(200);
    expect(pin.body).toMatchObject({
      configured: '2026-04-14',
      pinned: '2026-04-14',
      action: 'already-pinned',
    });
    const inbox = await http().post('/inbox/redeliver').expect(200);
    expect(inbox.body).toMatchObject({ ran: true, failed: 0, dead: 0 });
  });
});

function snake(b: { virtual_account_id: string; recipient_id: string; amount: string; currency: string }) {
  return {
    virtualAccountId: b.virtual_account_id,
    recipientId: b.recipient_id,
    amount: b.amount,
    currency: b.currency,
  };
}
