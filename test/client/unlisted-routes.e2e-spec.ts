/**
 * The typed client's calls on two routes the contract does not list (evidence §11 N35, N36),
 * against the sandbox over a real socket: checked before I/O, the partner's refusals read.
 */
import { PartnerLocalValidationError } from '@partner-payments/nestjs';
import { PartnerValidationError } from '@partner-payments/nestjs/errors';
import { startClientWorld, stopClientWorld, type ClientWorld } from './client.fixture';

describe('client: crypto payouts and quotations (evidence §11 N35, N36)', () => {
  let world: ClientWorld;
  beforeAll(async () => (world = await startClientWorld({}, { rateLimit: false })));
  afterAll(() => stopClientWorld(world));
  const sent = async (route: string) =>
    (await world.sandbox.control.requestLog()).filter((e) => e.route === route).length;

  it('payouts.createCrypto names every missing field before any I/O and sends a key; the sandbox refuses past validation', async () => {
    const local = (await world.graph.client.payouts
      .createCrypto({
        user_id: crypto.randomUUID(),
        recipient_id: crypto.randomUUID(),
        amount: 1,
        currency: 'USD',
      } as never)
      .catch((e: unknown) => e)) as PartnerLocalValidationError;
    expect(local).toBeInstanceOf(PartnerLocalValidationError);
    expect(local.fieldErrors.map((e) => e.field)).toEqual(['network', 'txHash', 'quote_id']);
    expect(await sent('POST /v1/payouts')).toBe(0);
    const refused = (await world.graph.client.payouts
      .createCrypto({
        user_id: crypto.randomUUID(),
        recipient_id: crypto.randomUUID(),
        amount: 1,
        currency: 'USD',
        network: 'ethereum',
        txHash: '0xabc',
        quote_id: crypto.randomUUID(),
      })
      .catch((e: unknown) => e)) as PartnerValidationError;
    expect(refused).toBeInstanceOf(PartnerValidationError);
    expect([refused.status, refused.code]).toEqual([422, 'unprocessable']);
    const log = (await world.sandbox.control.requestLog()).filter((e) => e.route === 'POST /v1/payouts');
    expect(log).toHaveLength(1); // not replayed
    expect(log[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('quotations.create needs a recipient or an account type and integer minor units; the partner’s array path names the field', async () => {
    const body = { source_currency: 'USD', destination_currency: 'MXN', amount: 10000 };
    const local = (await world.graph.client.quotations
      .create({ ...body, amount: 100.5 })
      .catch((e: unknown) => e)) as PartnerLocalValidationError;
    expect(local.fieldErrors.map((e) => e.field)).toEqual(['recipient_id', 'amount']);
    expect(await sent('POST /v1/quotations')).toBe(0);
    // The partner's refusal (path as an array), reached by bypassing the local check.
    const partner = (await world.graph.client.http
      .request({ method: 'POST', path: '/v1/quotations', body })
      .catch((e: unknown) => e)) as PartnerValidationError;
    expect(partner).toBeInstanceOf(PartnerValidationError);
    expect(partner.fieldErrors).toEqual([
      { field: 'recipient_id', message: expect.stringMatching(/^Either/) },
    ]);
    const named = (await world.graph.client.quotations
      .create({ ...body, account_type: 'WIRE' })
      .catch((e: unknown) => e)) as PartnerValidationError;
    expect([named.status, named.code]).toEqual([422, 'unprocessable']);
  });
});
