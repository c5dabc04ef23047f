/** Payout lifecycle: the steps a payout walks, the events each sends, and what the resource shows (spec 3.4, 6.4). */
import { wireAccount, wireRecipient, type World } from '../sandbox.fixture';
import {
  fundedActBankAccount,
  payOutWithMemo,
  usePayoutWorld,
  type PayoutIds,
} from '../funded-setup.fixture';

describe('sandbox: payout lifecycle and events (spec 3.4, 6.4)', () => {
  let world: World;
  let ids: PayoutIds;
  const { create, flat } = usePayoutWorld((current) => ({ world, ids } = current));
  const v2 = () => world.receiver.events('payout.status_changed').map((e) => e.body.data);

  it('fiat lifecycle: granular flat events AND payout.status_changed; reference_number null until sent, then equal everywhere', async () => {
    const { body } = await create();
    await world.sandbox.control.advancePayout(body.id, 'PENDING');
    expect((await world.api.call('GET', `/v1/payouts/${body.id}`)).body.reference_number).toBeNull();
    const view = await world.sandbox.control.advancePayout(body.id, ['PROCESSING', 'COMPLETED']);
    expect(view.status).toBe('COMPLETED');
    const read = await world.api.call('GET', `/v1/payouts/${body.id}`);
    expect(read.body.status).toBe('COMPLETED');
    expect(read.body.reference_number).toMatch(/^\d{8}[A-Z0-9]+$/);
    await world.sandbox.control.flushWebhooks();
    expect(world.receiver.received.map((r) => r.body.event)).toEqual([
      'payout.created',
      'payout.pending',
      'payout.status_changed',
      'payout.processing',
      'payout.status_changed',
      'payout.completed',
      'payout.status_changed',
    ]);
    expect(flat('payout.pending')[0].status).toBe('pending');
    const completed = flat('payout.completed')[0];
    expect(completed).toMatchObject({
      payout_id: body.id,
      status: 'completed',
      reference_number: read.body.reference_number,
      recipient: expect.objectContaining({ recipient_id: ids.recipientId }),
    });
    expect(completed).not.toHaveProperty('error_code');
    expect(completed).not.toHaveProperty('metadata');
    expect(completed).not.toHaveProperty('uetr');
    expect(v2().map((d) => [d.data.previous_status, d.data.status])).toEqual([
      ['CREATED', 'PENDING'],
      ['PENDING', 'PROCESSING'],
      ['PROCESSING', 'COMPLETED'],
    ]);
    expect(v2()[2]).toMatchObject({
      event_type: 'payout.status_changed',
      event_id: expect.any(String),
      created_at: expect.any(String),
    });
    expect(v2()[2].data).toMatchObject({
      payout_id: body.id,
      amount: '100.00',
      destination_amount: expect.any(String),
      recipient: expect.any(Object),
    });
    for (const r of world.receiver.received) expect(r.body).not.toHaveProperty('event_id');
  });

  it('holds KYT_PENDING / IN_REVIEW surface only through payout.status_changed, and may resolve silently (6.4.7, 6.4.8)', async () => {
    const { body } = await create();
    await world.sandbox.control.advancePayout(body.id, [
      'PENDING',
      { status: 'KYT_PENDING', reviewReason: 'kyt_alert' },
      'IN_REVIEW',
    ]);
    await world.sandbox.control.advancePayout(body.id, [
      { status: 'PROCESSING', events: 'none' },
      { status: 'COMPLETED', events: 'none' },
    ]);
    await world.sandbox.control.flushWebhooks();
    const names = world.receiver.received.map((r) => r.body.event);
    expect(names.some((n) => /kyt|review/i.test(n))).toBe(false);
    expect(v2().map((d) => d.data.status)).toEqual(['PENDING', 'KYT_PENDING', 'IN_REVIEW']);
    expect(v2()[1].data.review_reason).toBe('kyt_alert');
    expect(v2()[2].data.review_reason).toEqual(expect.any(String));
    expect(flat('payout.completed')).toHaveLength(0);
    const read = await world.api.call('GET', `/v1/payouts/${body.id}`);
    expect(read.body.status).toBe('COMPLETED');
    expect(read.body.events.map((e: { status: string }) => e.status)).toEqual([
      'CREATED',
      'PENDING',
      'KYT_PENDING',
      'IN_REVIEW',
      'PROCESSING',
      'COMPLETED',
    ]);
  });

  it('failure, bank return (even after COMPLETED) and ACT cancellation resolve the resource to FAILED with error_code (3.4, 6.4.6)', async () => {
    const failed = (await create()).body.id;
    await world.sandbox.control.advancePayout(failed, [
      'PENDING',
      { status: 'FAILED', errorCode: 'ACCOUNT_CLOSED' },
    ]);
    const returned = (await create()).body.id;
    await world.sandbox.control.advancePayout(returned, ['PENDING', 'PROCESSING', 'COMPLETED', 'RETURNED']);
    // ACT is a bank of the partner, not a recipient account type (evidence §5, §6): the ACT rail is
    // a WIRE payout from an account at the ACT bank (bank_d), and `account_type: 'ACT'` is refused.
    const actRecipient = await world.api.call('POST', '/v1/recipients', {
      body: wireRecipient(ids.userId, { account: { ...wireAccount('55555'), account_type: 'ACT' } }),
    });
    expect(actRecipient.status).toBe(400);
    const actBank = await fundedActBankAccount(world.api, ids.userId);
    const actPayout = await payOutWithMemo(world.api, actBank, ids.recipientId, '100.00');
    expect(actPayout.status).toBe(201);
    const act = actPayout.body.id;
    await world.sandbox.control.advancePayout(act, ['PENDING', 'ACT_CANCELLED']);
    await world.sandbox.control.flushWebhooks();

    const read = async (id: string) => (await world.api.call('GET', `/v1/payouts/${id}`)).body;
    expect(await read(failed)).toMatchObject({
      status: 'FAILED',
      error_code: 'ACCOUNT_CLOSED',
      reference_number: null,
    });
    expect(await read(returned)).toMatchObject({
      status: 'FAILED',
      error_code: expect.any(String),
      reference_number: expect.any(String),
    });
    expect(await read(act)).toMatchObject({
      status: 'FAILED',
      payment_method: 'wire',
      error_code: expect.any(String),
    });

    const failedEvents = flat('payout.failed');
    expect(failedEvents.map((d) => [d.payout_id, d.status])).toEqual([
      [failed, 'failed'],
      [act, 'cancelled'],
    ]);
    expect(failedEvents[0]).toMatchObject({ reference_number: null, recipient: expect.any(Object) });
    // The ACT rail is a wire (evidence §6): events say what GET says, and a sent one has a wire's IMAD.
    expect(failedEvents.map((d) => d.payment_method)).toEqual(['wire', 'wire']);
    const actSent = (await payOutWithMemo(world.api, actBank, ids.recipientId, '10.00')).body.id;
    await world.sandbox.control.advancePayout(actSent, ['PENDING', 'PROCESSING']);
    expect((await read(actSent)).reference_number).toMatch(/^\d{8}MMQFMP[0-9A-F]{2}\d{6}$/);
    expect(failedEvents[0]).not.toHaveProperty('error_code');
    const returnedEvents = flat('payout.returned');
    expect(returnedEvents).toEqual([
      expect.objectContaining({
        payout_id: returned,
        status: 'returned',
        reference_number: (await read(returned)).reference_number,
      }),
    ]);
    await expect(world.sandbox.control.advancePayout(failed, 'COMPLETED')).rejects.toThrow('final');
    // An ACT cancellation exists on the ACT rail only (spec 6.4.6); CANCELLED (stopped before
    // sending) is its own final status with no flat event (evidence §6).
    const wire = (await create()).body.id;
    await expect(world.sandbox.control.advancePayout(wire, ['PENDING', 'ACT_CANCELLED'])).rejects.toThrow(
      /only on the ACT rail/,
    );
    await world.sandbox.control.advancePayout(wire, 'CANCELLED');
    expect(await read(wire)).toMatchObject({ status: 'CANCELLED' });
    await expect(world.sandbox.control.advancePayout(wire, 'PROCESSING')).rejects.toThrow('final');
    await world.sandbox.control.flushWebhooks();
    expect(flat('payout.failed').map((d) => d.payout_id)).not.toContain(wire);
  });

  it('refuses transitions the partner cannot produce: after COMPLETED only a return or failure; no return before sending', async () => {
    const done = (await create()).body.id;
    await world.sandbox.control.advancePayout(done, ['PENDING', 'PROCESSING', 'COMPLETED']);
    for (const step of [
      'PENDING',
      'PROCESSING',
      'CANCELLED',
      'ACT_CANCELLED',
      'KYT_PENDING',
      'COMPLETED',
    ] as const)
      await expect(world.sandbox.control.advancePayout(done, step)).rejects.toThrow('COMPLETED');
    const early = (await create()).body.id;
    await world.sandbox.control.advancePayout(early, 'PENDING');
    await expect(world.sandbox.control.advancePayout(early, 'RETURNED')).rejects.toThrow('never sent');
    const read = async (id: string) => (await world.api.call('GET', `/v1/payouts/${id}`)).body;
    expect((await read(done)).status).toBe('COMPLETED');
    expect((await read(early)).status).toBe('PENDING');
    await world.sandbox.control.advancePayout(done, { status: 'FAILED', errorCode: 'BANK_FAILURE' });
    expect(await read(done)).toMatchObject({ status: 'FAILED', error_code: 'BANK_FAILURE' });
  });

  it('optional uetr / imad / omad are absent by default and can be added to one step (6.4.4)', async () => {
    const { body } = await create();
    await world.sandbox.control.advancePayout(body.id, [
      'PENDING',
      'PROCESSING',
      { status: 'COMPLETED', eventExtras: { uetr: 'u-1', imad: 'i-1', omad: 'o-1' } },
    ]);
    await world.sandbox.control.flushWebhooks();
    expect(flat('payout.completed')[0]).toMatchObject({ uetr: 'u-1', imad: 'i-1', omad: 'o-1' });
    expect(flat('payout.processing')[0]).not.toHaveProperty('uetr');
  });

  it('crypto rail: terminal success arrives only as payout.status_changed COMPLETED (6.4.7, depending on rail)', async () => {
    const wallet = await world.api.call('POST', '/v1/recipients', {
      body: {
        user_id: ids.userId,
        type: 'individual',
        first_name: 'W',
        last_name: 'Allet',
        account: {
          account_type: 'WALLET',
          token: 'USDC',
          address: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174',
          network: 'polygon',
        },
      },
    });
    const { body } = await create({ recipient_id: wallet.body.recipient_id });
    await world.sandbox.control.advancePayout(body.id, ['PENDING', 'PROCESSING', 'COMPLETED']);
    await world.sandbox.control.flushWebhooks();
    expect(flat('payout.completed')).toHaveLength(0);
    expect(v2().map((d) => d.data.status)).toEqual(['PENDING', 'PROCESSING', 'COMPLETED']);
    expect((await world.api.call('GET', `/v1/payouts/${body.id}`)).body).toMatchObject({
      payment_method: 'wallet',
      to_currency: 'USDC',
      status: 'COMPLETED',
    });
  });
});
