/**
 * The typed client's payouts against the sandbox over a real socket (evidence §6):
 * the GET shape (origin, lowercase rail, masked parties, events), CANCELLED as its own final status,
 * list rows and paging, and list inputs checked before any I/O.
 */
import { PartnerLocalValidationError, PartnerPayoutStatus } from '@partner-payments/nestjs';
import { PartnerValidationError, type PartnerFieldError } from '@partner-payments/nestjs/errors';
import { fundedSetup, startClientWorld, stopClientWorld, type ClientWorld } from './client.fixture';

describe('client: payouts (evidence §6)', () => {
  let world: ClientWorld;
  let ids: { userId: string; recipientId: string; vaId: string };
  beforeAll(async () => {
    world = await startClientWorld();
    ids = await fundedSetup(world);
  });
  afterAll(() => stopClientWorld(world));
  const payouts = () => world.graph.client.payouts;
  const create = (amount = '10.00') =>
    payouts().create(ids.vaId, { amount, currency: 'USD', recipient_id: ids.recipientId });

  it('get reads origin, the lowercase rail, masked sender and recipient, and the events with their ids', async () => {
    const created = await create();
    expect(created).toMatchObject({ status: PartnerPayoutStatus.Created, events: [], origin: null });
    await world.sandbox.control.advancePayout(created.payoutId, ['PENDING', 'PROCESSING']);
    const read = await payouts().get(created.payoutId);
    expect(read).toMatchObject({
      payoutId: created.payoutId,
      status: 'PROCESSING',
      origin: 'api',
      paymentMethod: 'wire',
      referenceNumber: expect.any(String),
      sender: { account_number: expect.stringMatching(/^\*{4}\d{4}$/) },
      recipient: { account_number: expect.stringMatching(/^\*{4}\d{4}$/) },
    });
    expect(read.events.map((e) => e.status)).toEqual(['CREATED', 'PENDING', 'PROCESSING']);
    for (const e of read.events)
      expect(e).toEqual({
        event_id: expect.any(String),
        status: expect.any(String),
        message: expect.any(String),
        created_at: expect.any(String),
      });
  });

  it('CANCELLED (stopped before sending) stays CANCELLED, final; it is not reported as FAILED', async () => {
    const created = await create();
    await world.sandbox.control.advancePayout(created.payoutId, ['PENDING', 'CANCELLED']);
    const read = await payouts().get(created.payoutId);
    expect(read.status).toBe(PartnerPayoutStatus.Cancelled);
    expect(read.status).not.toBe(PartnerPayoutStatus.Failed);
  });

  it('list answers the evidence rows with paging; iterate walks every page; bad paging is refused locally', async () => {
    await create('1.00');
    await create('2.00');
    const page = await payouts().list({ user_id: ids.userId, limit: 2, page: 1 });
    expect(page).toMatchObject({
      page: 1,
      limit: 2,
      total: expect.any(Number),
      totalPages: expect.any(Number),
    });
    expect(page.payouts[0]).toMatchObject({
      virtualAccountId: ids.vaId,
      paymentMethod: 'wire',
      origin: 'api',
    });
    const all = [];
    for await (const p of payouts().iterate({ user_id: ids.userId, limit: 2 })) all.push(p.payoutId);
    expect(all).toHaveLength(page.total ?? -1);
    expect(new Set(all).size).toBe(all.length);
    const before = (await world.sandbox.control.requestLog()).length;
    await expect(payouts().list({ limit: 101 })).rejects.toBeInstanceOf(PartnerLocalValidationError);
    await expect(payouts().list({ page: 0 })).rejects.toMatchObject({ fieldErrors: [{ field: 'page' }] });
    expect((await world.sandbox.control.requestLog()).length).toBe(before);
  });

  describe('create validates before any I/O, naming each field by its path', () => {
    const NULL_MESSAGE = 'must be left out rather than null (the partner counts null as a type error)';
    const body = () => ({ amount: '10.00', currency: 'USD', recipient_id: ids.recipientId });
    /** The fieldErrors of a call that must fail locally. */
    const refused = async (call: () => Promise<unknown>): Promise<PartnerFieldError[]> => {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PartnerLocalValidationError);
      return (err as PartnerLocalValidationError).fieldErrors;
    };
    let before: number;
    beforeEach(async () => (before = (await world.sandbox.control.requestLog()).length));
    afterEach(async () => expect((await world.sandbox.control.requestLog()).length).toBe(before));

    it('extra_info.memo over 255 characters (evidence §6 [T1 ExecutePayoutService]) is refused', async () => {
      expect(
        await refused(() => payouts().create(ids.vaId, { ...body(), extra_info: { memo: 'm'.repeat(256) } })),
      ).toEqual([
        { field: 'extra_info.memo', message: 'must be at most 255 characters (UTF-16 code units; got 256)' },
      ]);
      // UTF-16 code units, as the partner counts: 128 emoji are 256 units.
      expect(
        await refused(() =>
          payouts().create(ids.vaId, { ...body(), extra_info: { memo: '😀'.repeat(128) } }),
        ),
      ).toEqual([{ field: 'extra_info.memo', message: expect.stringContaining('got 256') }]);
    });

    it('extra_info that is not an object, and a memo that is not a string, are refused', async () => {
      for (const bad of ['inv 42', ['inv 42'], 7])
        expect(
          await refused(() => payouts().create(ids.vaId, { ...body(), extra_info: bad as never })),
        ).toEqual([{ field: 'extra_info', message: expect.stringMatching(/^must be an object/) }]);
      expect(
        await refused(() => payouts().create(ids.vaId, { ...body(), extra_info: { memo: 42 as never } })),
      ).toEqual([{ field: 'extra_info.memo', message: 'must be a string (got number)' }]);
    });

    it('a field sent as null (evidence §6 [T3r DRIFT-43]) is refused with the preview message, nested too, and reported once', async () => {
      expect(await refused(() => payouts().create(ids.vaId, { ...body(), quote_id: null as never }))).toEqual(
        [{ field: 'quote_id', message: NULL_MESSAGE }],
      );
      expect(
        await refused(() => payouts().create(ids.vaId, { ...body(), extra_info: null as never })),
      ).toEqual([{ field: 'extra_info', message: NULL_MESSAGE }]);
      expect(
        await refused(() =>
          payouts().create(ids.vaId, {
            ...body(),
            extra_info: { memo: null as never, internal_notes: null as never },
          }),
        ),
      ).toEqual([
        { field: 'extra_info.memo', message: NULL_MESSAGE },
        { field: 'extra_info.internal_notes', message: NULL_MESSAGE },
      ]);
      // A null required field is named as null, not also as missing.
      expect(
        await refused(() => payouts().create(ids.vaId, { ...body(), recipient_id: null as never })),
      ).toEqual([{ field: 'recipient_id', message: NULL_MESSAGE }]);
    });

    it('a virtualAccountId or recipient_id that is not a UUID (spec 4.6, 2.3) is refused, not sent to answer 403', async () => {
      for (const va of ['va-1', '..', `${ids.vaId}x`])
        expect(await refused(() => payouts().create(va, body()))).toEqual([
          { field: 'virtualAccountId', message: 'must be a UUID' },
        ]);
      expect(await refused(() => payouts().create('', body()))).toEqual([
        { field: 'virtualAccountId', message: 'is required' },
      ]);
      expect(await refused(() => payouts().create(ids.vaId, { ...body(), recipient_id: 'r-1' }))).toEqual([
        { field: 'recipient_id', message: 'must be a UUID' },
      ]);
    });

    it('reports every problem at once', async () => {
      const fields = (
        await refused(() =>
          payouts().create('va-1', {
            amount: '1.234',
            currency: 'USD',
            recipient_id: 'r-1',
            quote_id: null as never,
            extra_info: { memo: 'm'.repeat(300) },
          }),
        )
      ).map((e) => e.field);
      expect(fields).toEqual(['virtualAccountId', 'quote_id', 'amount', 'recipient_id', 'extra_info.memo']);
    });
  });

  it('create sends a memo of exactly 255 characters and an extra_info with internal_notes', async () => {
    const created = await payouts().create(ids.vaId, {
      amount: '3.00',
      currency: 'USD',
      recipient_id: ids.recipientId,
      extra_info: { memo: 'm'.repeat(255), internal_notes: 'batch 7' },
    });
    expect(created.status).toBe(PartnerPayoutStatus.Created);
    const sent = (await world.sandbox.control.requestLog()).filter((r) => r.path.endsWith('/payout'));
    expect(sent.at(-1)?.status).toBe(201);
  });

  it('create without a quote sends client_markup and nature_of_payment (priced at execution, evidence §6); a markup that is not an object, or sent with quote_id, is refused before any I/O', async () => {
    const created = await payouts().create(ids.vaId, {
      amount: '4.00',
      currency: 'USD',
      recipient_id: ids.recipientId,
      client_markup: { fixed_fee: '1.00', percentage_fee: '0' },
      nature_of_payment: 'services',
    });
    expect(created.status).toBe(PartnerPayoutStatus.Created);
    const log = await world.sandbox.control.requestLog();
    const sent = log.filter((r) => r.path.endsWith('/payout'));
    expect(sent.at(-1)?.status).toBe(201);
    const err = await payouts()
      .create(ids.vaId, {
        amount: '4.00',
        currency: 'USD',
        recipient_id: ids.recipientId,
        client_markup: '1.00' as never,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerLocalValidationError);
    expect((err as PartnerLocalValidationError).fieldErrors).toEqual([
      { field: 'client_markup', message: 'must be an object (got string)' },
    ]);
    // quote_id or client_markup, not both (evidence §6 [T1 ExecutePayoutService]): the quote's price
    // holds the markup given at preview; sent again it may be charged twice.
    const both = await payouts()
      .create(ids.vaId, {
        amount: '4.00',
        currency: 'USD',
        recipient_id: ids.recipientId,
        quote_id: 'q-from-preview',
        client_markup: { fixed_fee: '1.00', percentage_fee: '0' },
      })
      .catch((e: unknown) => e);
    expect(both).toBeInstanceOf(PartnerLocalValidationError);
    expect((both as PartnerLocalValidationError).fieldErrors.map((e) => e.field)).toEqual(['client_markup']);
    expect(await world.sandbox.control.requestLog()).toHaveLength(log.length);
  });
});

describe('client: payout preview (evidence §6)', () => {
  it('against the partner-strict default: every preview is refused as the partner sandbox refuses it; no Idempotency-Key is sent', async () => {
    const world = await startClientWorld();
    try {
      const ids = await fundedSetup(world);
      const refused = await world.graph.client.payouts
        .preview(ids.vaId, { amount: '100.00', recipient_id: ids.recipientId })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(PartnerValidationError);
      expect((refused as Error).message).toContain('Total fees exceed or equal the payout amount');
      const sent = (await world.sandbox.control.requestLog()).filter((r) =>
        r.path.endsWith('/payout/preview'),
      );
      expect(sent).toHaveLength(1);
      expect(sent[0].headers).not.toHaveProperty('idempotency-key');
    } finally {
      await stopClientWorld(world);
    }
  });

  it('with the opt-in fee profile: fees and amounts before creating, inverse calculation, a quote; bad input refused locally', async () => {
    const world = await startClientWorld({ payoutFees: { percent: 1, fixed: '2.00' } });
    try {
      const ids = await fundedSetup(world);
      const preview = world.graph.client.payouts.preview.bind(world.graph.client.payouts);
      expect(await preview(ids.vaId, { amount: '100.00', recipient_id: ids.recipientId })).toMatchObject({
        amount: '100.00',
        currency: 'USD',
        fees: { total: '3.00' },
        recipient_amount: '97.00',
        recipient_currency: 'USD',
      });
      const inverse = await preview(ids.vaId, {
        amount: '97.00',
        account_type: 'WIRE',
        inverse_calculation: true,
        create_quote: true,
      });
      expect(inverse).toMatchObject({ recipient_amount: '97.00', quote_id: expect.any(String) });
      expect(Date.parse(String(inverse.quote_expires_at))).toBeGreaterThan(Date.now());
      expect((await world.sandbox.control.counters()).created.payouts ?? 0).toBe(0); // creates nothing
      // The quote is spent by one payout of the quoted gross amount (fees included) to a WIRE recipient.
      const quoted = {
        amount: inverse.amount,
        currency: 'USD',
        recipient_id: ids.recipientId,
        quote_id: inverse.quote_id,
      };
      const payout = await world.graph.client.payouts.create(ids.vaId, quoted);
      expect(payout).toMatchObject({
        payoutId: expect.any(String),
        status: 'CREATED',
        amount: inverse.amount,
      });
      await expect(world.graph.client.payouts.create(ids.vaId, quoted)).rejects.toMatchObject({
        status: 400,
        fieldErrors: [{ field: 'quote_id', message: `was already used by payout ${payout.payoutId}` }],
      });
      const before = (await world.sandbox.control.requestLog()).length;
      await expect(
        preview(ids.vaId, { amount: '1.234', recipient_id: ids.recipientId }),
      ).rejects.toMatchObject({
        fieldErrors: [{ field: 'amount' }],
      });
      await expect(preview(ids.vaId, { amount: '1.00' })).rejects.toMatchObject({
        fieldErrors: [{ field: 'recipient_id' }],
      });
      await expect(
        preview(ids.vaId, { amount: '1.00', account_type: 'WIRE', client_markup: null as never }),
      ).rejects.toMatchObject({ fieldErrors: [expect.objectContaining({ field: 'client_markup' })] });
      expect((await world.sandbox.control.requestLog()).length).toBe(before);
    } finally {
      await stopClientWorld(world);
    }
  });
});
