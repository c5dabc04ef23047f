/**
 * Sandbox -> POST /webhooks/partner -> TypeORM inbox -> projections, over real sockets, for every
 * event family, on a SQLite file and on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { signPartnerWebhook, type PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import {
  DepositEntity,
  PartnerUserEntity,
  PayoutEntity,
  VirtualAccountEntity,
} from '../../../apps/reference-app/src/app-entities.constants';
import { inboxEventKey, PartnerUnitOfWork, PartnerWebhookInboxEntity } from '@partner-payments/typeorm';
import { appRequest, eventually } from '../../setup/app.fixture';
import { useFundedApp, type FundedAccount } from '../../setup/funded-account.fixture';
import { DATABASE_KINDS } from '../../setup/test-database.fixture';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

describe.each(DATABASE_KINDS)('webhooks -> projections on %s', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let account: FundedAccount;
  let uow: PartnerUnitOfWork;

  useFundedApp(kind, 'webhooks', `wh-${kind}`, (world) => {
    ({ sandbox, running, account, uow } = world);
  });

  const http = () => appRequest(running);
  const find = <T extends object>(entity: new () => T, where: Partial<T>) =>
    uow.run((m) => m.findOne(entity, { where: where as never }));
  const until = <T extends object>(
    entity: new () => T,
    where: Partial<T>,
    ok: (row: T) => boolean,
    what: string,
  ) =>
    eventually(
      async () => {
        const row = await find(entity, where);
        return row && ok(row) ? row : undefined;
      },
      5000,
      what,
    );
  const inboxCount = () => uow.run((m) => m.count(PartnerWebhookInboxEntity));
  /** Waits until the inbox entry of `eventId` is handled, and checks it was processed cleanly. */
  const processedCleanly = async (eventId: string, what: string) => {
    const entry = await until(
      PartnerWebhookInboxEntity,
      { eventKey: inboxEventKey(eventId) },
      (e) => e.state !== 'pending',
      what,
    );
    expect({ state: entry.state, error: entry.lastError }).toEqual({ state: 'processed', error: null });
  };
  /** POST /webhooks/partner with `body` signed by `secret` (the partner's by default). */
  const deliverSigned = (body: string, secret = sandbox.webhookSecret, type = 'application/json') =>
    http()
      .post('/webhooks/partner')
      .set('content-type', type)
      .set('x-signature-sha256', signPartnerWebhook(body, secret))
      .send(body);
  const createPayout = async (amount = '10.00') =>
    (
      await http()
        .post('/payouts')
        .set('Idempotency-Key', randomUUID())
        .send({
          virtual_account_id: account.virtualAccountId,
          recipient_id: account.recipientId,
          amount,
          currency: 'USD',
        })
        .expect(201)
    ).body.payout_id as string;

  it('projects the user and virtual account events of onboarding', async () => {
    const user = await until(
      PartnerUserEntity,
      { userId: account.userId },
      (u) => u.status === 'VERIFIED',
      'user VERIFIED',
    );
    expect(JSON.parse(user.metadata ?? '{}')).toMatchObject({ tag: `wh-${kind}` }); // spec 6.4.1: from user.created
    const va = await until(
      VirtualAccountEntity,
      { virtualAccountId: account.virtualAccountId },
      () => true,
      'virtual account row',
    );
    expect(va).toMatchObject({ userId: account.userId });
    expect(va.accountNumberLast4 === null || /^\d{4}$/.test(va.accountNumberLast4)).toBe(true);
  });

  it('records a declined verification as REJECTED with its reasons, and liveness results', async () => {
    await sandbox.control.setUserVerificationOutcome(account.userId, 'declined');
    await sandbox.control.completeLiveness(account.userId, { result: 'passed' });
    const user = await until(
      PartnerUserEntity,
      { userId: account.userId },
      (u) => u.status === 'REJECTED' && u.livenessResult === 'passed' && u.rejectionReasons !== null,
      'user REJECTED with reasons + liveness',
    );
    expect(JSON.parse(user.rejectionReasons ?? '[]').length).toBeGreaterThan(0);
  });

  it('projects deposits and microdeposits', async () => {
    const { depositId } = await sandbox.control.simulateDeposit(account.virtualAccountId, {
      amount: '250.00',
      rail: 'ACH',
      senderName: 'ACME Payroll',
    });
    const deposit = await until(DepositEntity, { depositId }, () => true, 'deposit row');
    expect(deposit).toMatchObject({
      kind: 'deposit',
      amount: '250.00',
      virtualAccountId: account.virtualAccountId,
      paymentRail: 'ACH',
      senderName: 'ACME Payroll',
    });
    const micro = await sandbox.control.simulateDeposit(account.virtualAccountId, { microdeposit: true });
    expect(
      await until(DepositEntity, { depositId: micro.depositId }, () => true, 'microdeposit row'),
    ).toMatchObject({ kind: 'microdeposit' });
  });

  it('marks a settled deposit REFUNDED on virtual_account.deposit_funds_refunded (no status in it), and a late receipt does not move it back', async () => {
    // evidence §5: the newer refund event has no `status`; deposit reconciliation never re-reads a
    // COMPLETED deposit, so without a handler the row stayed COMPLETED.
    const { depositId } = await sandbox.control.simulateDeposit(account.virtualAccountId, {
      amount: '40.00',
    });
    const settled = await until(DepositEntity, { depositId }, () => true, 'deposit row');
    expect(settled.status).toBe('COMPLETED');
    const refund = (eventId: string, data: Record<string, unknown>) =>
      JSON.stringify({
        event: 'virtual_account.deposit_funds_refunded',
        data: { event_id: eventId, ...data },
      });
    const refundId = `evt_refund_${randomUUID()}`;
    await deliverSigned(
      refund(refundId, {
        deposit_id: depositId,
        virtual_account_id: account.virtualAccountId,
        amount: '40.00',
        currency: 'USD',
        return_details: { code: 'R01', reason: 'insufficient funds', refunded_at: new Date().toISOString() },
      }),
    ).expect(200);
    const refunded = await until(DepositEntity, { depositId }, (d) => d.status === 'REFUNDED', 'REFUNDED');
    expect(refunded).toMatchObject({
      kind: 'deposit',
      amount: '40.00',
      virtualAccountId: account.virtualAccountId,
    });

    // A receipt delivered late (its own event id) does not move a final status back.
    const lateId = `evt_late_${randomUUID()}`;
    await deliverSigned(
      JSON.stringify({
        event: 'virtual_account.deposit_funds_received',
        data: {
          event_id: lateId,
          deposit_id: depositId,
          virtual_account_id: account.virtualAccountId,
          amount: '40.00',
          currency: 'USD',
          status: 'completed',
        },
      }),
    ).expect(200);
    await processedCleanly(lateId, 'late receipt handled');
    expect((await find(DepositEntity, { depositId }))?.status).toBe('REFUNDED');

    // A refund of a deposit never seen here creates its row, final; one naming no deposit is processed and writes none.
    const unseen = randomUUID();
    await deliverSigned(refund(`evt_refund_${randomUUID()}`, { deposit_id: unseen, amount: '5.00' })).expect(
      200,
    );
    expect(
      await until(DepositEntity, { depositId: unseen }, (d) => d.status === 'REFUNDED', 'unseen refunded'),
    ).toMatchObject({ amount: '5.00' });
    const orphanId = `evt_refund_${randomUUID()}`;
    const before = await uow.run((m) => m.count(DepositEntity));
    await deliverSigned(refund(orphanId, { amount: '6.00' })).expect(200);
    await processedCleanly(orphanId, 'orphan refund handled');
    expect(await uow.run((m) => m.count(DepositEntity))).toBe(before);
  });

  it('projects an authentic deposit whose fields outgrow the columns (no deposit_id and a 100-character event id, a 300-character sender name with U+0000): processed, never left dead', async () => {
    // Beyond the inbox too: an odd id must not be processed on SQLite and left dead on
    // PostgreSQL (varchar limits, NUL). The event is the partner's, only its content is unusual.
    const eventId = `odd_${'i'.repeat(96)}`;
    const body = JSON.stringify({
      event: 'virtual_account.deposit_funds_received',
      data: {
        event_id: eventId,
        virtual_account_id: account.virtualAccountId,
        amount: '3.00',
        currency: 'USD',
        status: 'completed',
        source: { payment_rail: 'wire', sender_name: `Sender\u0000${'s'.repeat(300)}` },
      },
    });
    await deliverSigned(body).expect(200);
    await processedCleanly(eventId, 'the deposit event handled');
    const rows = await uow.run((m) =>
      m.find(DepositEntity, { where: { virtualAccountId: account.virtualAccountId, amount: '3.00' } }),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].depositId.length).toBeLessThanOrEqual(64);
    expect(rows[0].senderName).toBe(`Sender${'s'.repeat(194)}`); // U+0000 dropped, cut to its 200 characters
  });

  it('follows a payout through both families to COMPLETED, holds included, each event stored once', async () => {
    const payoutId = await createPayout();
    await sandbox.control.advancePayout(payoutId, [
      'PENDING',
      'PROCESSING',
      { status: 'IN_REVIEW', reviewReason: 'manual_review' },
    ]);
    const held = await until(
      PayoutEntity,
      { payoutId },
      (p) => p.status === 'IN_REVIEW',
      'IN_REVIEW from the V2 event',
    );
    expect(held).toMatchObject({ reviewReason: 'manual_review', lastSource: 'webhook' });
    await sandbox.control.advancePayout(payoutId, 'COMPLETED');
    const done = await until(PayoutEntity, { payoutId }, (p) => p.status === 'COMPLETED', 'COMPLETED');
    expect(done.referenceNumber).toBeTruthy();
    const deliveries = (await sandbox.control.deliveries()).filter((d) => d.body.includes(payoutId));
    const ids = [...new Set(deliveries.map((d) => d.eventId as string))];
    expect(ids.length).toBe(deliveries.length); // the sandbox sent each event once...
    // ...and each is one inbox row, processed (both families of one transition included).
    const processed = () =>
      uow.run((m) =>
        m.count(PartnerWebhookInboxEntity, {
          where: ids.map((eventId) => ({ eventId, state: 'processed' as const })),
        }),
      );
    await eventually(
      async () => ((await processed()) === ids.length ? true : undefined),
      5000,
      'every payout event processed',
    );
  });

  it('absorbs a duplicate delivery: answered 2xx, stored once, not applied again', async () => {
    const payoutId = await createPayout();
    await sandbox.control.advancePayout(payoutId, { status: 'PENDING', events: 'granular' });
    const pending = await until(PayoutEntity, { payoutId }, (p) => p.status === 'PENDING', 'PENDING');
    const before = await inboxCount();
    await sandbox.control.sendDuplicate();
    await sandbox.control.flushWebhooks();
    const last = (await sandbox.control.deliveries()).at(-1);
    expect(last).toMatchObject({ duplicate: true, status: 200 });
    expect(await inboxCount()).toBe(before);
    expect((await find(PayoutEntity, { payoutId }))?.version).toBe(pending.version);
  });

  it('absorbs re-ordered deliveries: a late PROCESSING does not undo COMPLETED, a bank return still fails it', async () => {
    const payoutId = await createPayout();
    await sandbox.control.reorderNext(3);
    await sandbox.control.advancePayout(payoutId, [
      { status: 'PENDING', events: 'granular' },
      { status: 'PROCESSING', events: 'granular' },
      { status: 'COMPLETED', events: 'granular' },
    ]);
    await sandbox.control.flushWebhooks();
    const sent = (await sandbox.control.deliveries()).filter((d) => d.body.includes(payoutId));
    const at = (event: string) => Date.parse(sent.find((d) => d.event === event)?.sentAt ?? '');
    expect(at('payout.completed')).toBeLessThanOrEqual(at('payout.pending')); // really delivered in reverse
    await eventually(
      async () =>
        (await uow.run((m) => m.countBy(PartnerWebhookInboxEntity, { state: 'pending' }))) === 0
          ? true
          : undefined,
      5000,
      'inbox drained',
    );
    expect((await find(PayoutEntity, { payoutId }))?.status).toBe('COMPLETED');

    await sandbox.control.advancePayout(payoutId, 'RETURNED');
    const returned = await until(
      PayoutEntity,
      { payoutId },
      (p) => p.status === 'FAILED',
      'FAILED after the bank return',
    );
    expect(returned.previousStatus).toBe('COMPLETED');
    // payout.returned carries no error_code (spec 6.4.4): reconciliation reads it from the resource once.
    expect(returned.errorCode).toBeNull();
    await http().post('/reconciliation/run').expect(200);
    expect(await find(PayoutEntity, { payoutId })).toMatchObject({
      status: 'FAILED',
      errorCode: 'R01',
      lastSource: 'reconciliation',
    });
  });

  it('acknowledges and records an unknown event type (spec 6.1.5)', async () => {
    const { eventId } = await sandbox.control.sendUnknownEvent('payout.teleported');
    await sandbox.control.flushWebhooks();
    expect((await sandbox.control.deliveries()).at(-1)).toMatchObject({ eventId, status: 200 });
    expect(
      await until(
        PartnerWebhookInboxEntity,
        { eventId },
        (e) => e.state === 'processed',
        'unknown event processed',
      ),
    ).toMatchObject({ eventName: 'payout.teleported' });
  });

  it('answers 401 to a bad signature, 400 to a signed non-JSON body, 413 beyond 1 MB, storing none of them', async () => {
    const before = await inboxCount();
    const body = JSON.stringify({
      event: 'payout.completed',
      data: { event_id: randomUUID(), payout_id: 'x', status: 'completed' },
    });
    await deliverSigned(body, 'wrong-secret').expect(401);
    await http().post('/webhooks/partner').set('content-type', 'application/json').send(body).expect(401);
    const junk = '{"event": "payout.completed", "data": ';
    await deliverSigned(junk, sandbox.webhookSecret, 'text/plain').expect(400);
    const huge = JSON.stringify({
      event: 'user.updated',
      data: { event_id: randomUUID(), pad: 'x'.repeat(1_100_000) },
    });
    await deliverSigned(huge).expect(413);
    expect(await inboxCount()).toBe(before);
  });
});
