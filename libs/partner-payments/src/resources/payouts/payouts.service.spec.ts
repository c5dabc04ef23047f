import { PartnerLocalValidationError, type PartnerFieldError } from '../../errors/partner.errors';
import type { PartnerHttpClient } from '../../http/partner-http.client';
import type { PartnerRequest, PartnerResponse } from '../../http/http.types';
import type { CreatePartnerPayoutInput } from './payout.model';
import { PartnerPayoutsService } from './payouts.service';

const VA = '0b6f6f0e-3c1e-4d6a-9f3b-2a7c1d5e8f90';
const RECIPIENT = '5d2c9a4b-7e1f-4b3a-8c6d-1e0f2a3b4c5d';
const NULL_MESSAGE = 'must be left out rather than null (the partner counts null as a type error)';

/** A PartnerHttpClient that records what reached it and answers a created payout. */
function stubHttp(): { http: PartnerHttpClient; sent: PartnerRequest[] } {
  const sent: PartnerRequest[] = [];
  const http = {
    request: (req: PartnerRequest): Promise<PartnerResponse<unknown>> => {
      sent.push(req);
      return Promise.resolve({
        data: { id: 'c1a2b3c4-d5e6-4f70-8a9b-0c1d2e3f4a5b', status: 'created' },
        meta: { status: 201 } as PartnerResponse<unknown>['meta'],
      });
    },
  } as unknown as PartnerHttpClient;
  return { http, sent };
}

const body = (over: Partial<Record<keyof CreatePartnerPayoutInput, unknown>> = {}) =>
  ({ amount: '10.00', currency: 'USD', recipient_id: RECIPIENT, ...over }) as CreatePartnerPayoutInput;

describe('PartnerPayoutsService.create: checks before any I/O', () => {
  async function refused(va: string, input: CreatePartnerPayoutInput): Promise<PartnerFieldError[]> {
    const { http, sent } = stubHttp();
    const err = await new PartnerPayoutsService(http).create(va, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerLocalValidationError);
    expect(sent).toEqual([]);
    return (err as PartnerLocalValidationError).fieldErrors;
  }

  it('refuses extra_info.memo over 255 characters (evidence §6), counting UTF-16 code units', async () => {
    expect(await refused(VA, body({ extra_info: { memo: 'm'.repeat(256) } }))).toEqual([
      { field: 'extra_info.memo', message: 'must be at most 255 characters (UTF-16 code units; got 256)' },
    ]);
    expect(await refused(VA, body({ extra_info: { memo: '😀'.repeat(128) } }))).toEqual([
      { field: 'extra_info.memo', message: expect.stringContaining('got 256') },
    ]);
  });

  it('refuses extra_info that is not an object and a memo that is not a string', async () => {
    for (const bad of ['note', ['note'], 3])
      expect(await refused(VA, body({ extra_info: bad }))).toEqual([
        { field: 'extra_info', message: expect.stringMatching(/^must be an object \(got /) },
      ]);
    expect(await refused(VA, body({ extra_info: { memo: true } }))).toEqual([
      { field: 'extra_info.memo', message: 'must be a string (got boolean)' },
    ]);
  });

  it('refuses null fields with the preview message (evidence DRIFT-43), top level and inside extra_info, once each', async () => {
    expect(await refused(VA, body({ quote_id: null }))).toEqual([
      { field: 'quote_id', message: NULL_MESSAGE },
    ]);
    expect(await refused(VA, body({ amount: null, currency: null }))).toEqual([
      { field: 'amount', message: NULL_MESSAGE },
      { field: 'currency', message: NULL_MESSAGE },
    ]);
    expect(await refused(VA, body({ extra_info: { memo: null, 'internal-notes': null } }))).toEqual([
      { field: 'extra_info.memo', message: NULL_MESSAGE },
      { field: 'extra_info["internal-notes"]', message: NULL_MESSAGE },
    ]);
  });

  it('refuses a virtualAccountId or recipient_id that is not a UUID (spec 4.6, 2.3)', async () => {
    for (const va of ['va_1', '.', '..', `${VA}/payout`])
      expect(await refused(va, body())).toEqual([{ field: 'virtualAccountId', message: 'must be a UUID' }]);
    expect(await refused(' ', body())).toEqual([{ field: 'virtualAccountId', message: 'is required' }]);
    expect(await refused(VA, body({ recipient_id: 'rcp_1' }))).toEqual([
      { field: 'recipient_id', message: 'must be a UUID' },
    ]);
    expect(await refused(VA, body({ recipient_id: undefined }))).toEqual([
      { field: 'recipient_id', message: 'is required' },
    ]);
  });

  it('reports every problem in one error', async () => {
    const errors = await refused(
      'nope',
      body({ amount: 10, recipient_id: 'x', quote_id: null, extra_info: { memo: 'm'.repeat(300) } }),
    );
    expect(errors.map((e) => e.field)).toEqual([
      'virtualAccountId',
      'quote_id',
      'amount',
      'recipient_id',
      'extra_info.memo',
    ]);
  });

  it('refuses a client_markup that is not an object, a nature_of_payment that is not a string, internal_notes that are not a string', async () => {
    // evidence §6 [T3r DRIFT-42]: client_markup must be an object; [T1 ExecutePayoutService] the
    // execute body's optional fields.
    expect(
      await refused(
        VA,
        body({ client_markup: '15.00', nature_of_payment: 7, extra_info: { internal_notes: ['a'] } }),
      ),
    ).toEqual([
      { field: 'client_markup', message: 'must be an object (got string)' },
      { field: 'nature_of_payment', message: 'must be a string (got number)' },
      { field: 'extra_info.internal_notes', message: 'must be a string (got array)' },
    ]);
    expect(await refused(VA, body({ client_markup: [] }))).toEqual([
      { field: 'client_markup', message: 'must be an object (got array)' },
    ]);
    expect(await refused(VA, body({ client_markup: null }))).toEqual([
      { field: 'client_markup', message: NULL_MESSAGE },
    ]);
  });

  it('refuses client_markup with quote_id (the quote prices the markup: evidence §6 [T1 ExecutePayoutService]) and sends neither', async () => {
    expect(await refused(VA, body({ quote_id: 'q-1', client_markup: { fixed_fee: '15.00' } }))).toEqual([
      {
        field: 'client_markup',
        message: 'must not be sent with quote_id (the quote already prices the markup given at preview)',
      },
    ]);
    // Each alone goes out as it is; neither is the partner's to refuse (no evidence either way).
    for (const alone of [{ quote_id: 'q-1' }, { client_markup: { fixed_fee: '15.00' } }, {}]) {
      const { http, sent } = stubHttp();
      await new PartnerPayoutsService(http).create(VA, body(alone));
      expect(sent.map((r) => r.body)).toEqual([body(alone)]);
    }
  });

  it('refuses a quote_id that is not a non-empty string, before any I/O', async () => {
    for (const [bad, message] of [
      [123, 'must be a string (got number)'],
      [{}, 'must be a string (got object)'],
      [true, 'must be a string (got boolean)'],
      ['', 'must not be blank'],
      ['  ', 'must not be blank'],
    ] as const)
      expect(await refused(VA, body({ quote_id: bad }))).toEqual([{ field: 'quote_id', message }]);
  });

  it('sends a priced-at-execution payout as it is: client_markup and nature_of_payment, no quote_id', async () => {
    const { http, sent } = stubHttp();
    const input = body({
      client_markup: { fixed_fee: '15.00', percentage_fee: '0' },
      nature_of_payment: 'services',
      extra_info: { memo: 'inv 42', internal_notes: 'approved by ops' },
    });
    await new PartnerPayoutsService(http).create(VA, input);
    expect(sent.map((r) => r.body)).toEqual([input]);
  });

  it('sends valid input as it is: UUIDs in any case, a memo of exactly 255, other extra_info keys', async () => {
    const { http, sent } = stubHttp();
    const input = body({ extra_info: { memo: 'm'.repeat(255), internal_notes: 'n' } });
    const payout = await new PartnerPayoutsService(http).create(VA.toUpperCase(), input);
    expect(payout.status).toBe('CREATED');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: `/v1/virtual-accounts/${VA.toUpperCase()}/payout`,
      body: input,
    });
  });
});

describe('PartnerPayoutsService.preview: checks before any I/O, every problem at once', () => {
  it('names a virtualAccountId or recipient_id that is not a UUID together with the other problems', async () => {
    const { http, sent } = stubHttp();
    const err = await new PartnerPayoutsService(http)
      .preview('va_1', { amount: 'abc', recipient_id: 'rcp_1' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerLocalValidationError);
    expect((err as PartnerLocalValidationError).fieldErrors.map((e) => e.field)).toEqual([
      'virtualAccountId',
      'amount',
      'recipient_id',
    ]);
    expect(sent).toEqual([]);
  });

  it('sends a preview with UUIDs as it is', async () => {
    const { http, sent } = stubHttp();
    await new PartnerPayoutsService(http).preview(VA, { amount: '10.00', recipient_id: RECIPIENT });
    expect(sent.map((r) => r.body)).toEqual([{ amount: '10.00', recipient_id: RECIPIENT }]);
  });
});

describe('PartnerPayoutsService.preview keeps its null rule', () => {
  it('names each null field with the shared message, before any I/O', async () => {
    const { http, sent } = stubHttp();
    const err = await new PartnerPayoutsService(http)
      .preview(VA, { amount: '1.00', account_type: 'WIRE', client_markup: null as never })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerLocalValidationError);
    expect((err as PartnerLocalValidationError).fieldErrors).toEqual([
      { field: 'client_markup', message: NULL_MESSAGE },
    ]);
    expect(sent).toEqual([]);
  });
});
