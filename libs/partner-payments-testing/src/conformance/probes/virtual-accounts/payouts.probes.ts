/** Payouts (evidence §6, spec 3.4, 4.7): create, read, list, and the preview the partner refuses. */
import { randomUUID } from 'node:crypto';
import type { ConformanceProbe, ProbeContext, ProbeRequest } from '../../probe.types';
import { t } from '../../shape.util';
import { anyError, contract, evidence, namesField, onRunAccount } from '../probe-shapes.util';

/**
 * POST .../payout of 10.00 from the run's virtual account to its payee (spec 4.7: keyed), with
 * `fields` added to the body.
 */
const payoutOf10 =
  (extra: Pick<ProbeRequest, 'idempotencyKey'>, fields: Record<string, unknown> = {}) =>
  async (ctx: ProbeContext): Promise<ProbeRequest> =>
    onRunAccount(
      '/payout',
      {
        body: { recipient_id: (await ctx.payee()).id, amount: '10.00', currency: 'USD', ...fields },
        ...extra,
      },
      'POST',
    )(ctx);

/**
 * POST .../payout/preview of the run's virtual account: no Idempotency-Key (it creates nothing,
 * evidence §6 [T1 ExecutePayoutService]); `body` gets the run's payee unless it names account_type.
 */
const preview =
  (body: Record<string, unknown>) =>
  async (ctx: ProbeContext): Promise<ProbeRequest> =>
    onRunAccount(
      '/payout/preview',
      {
        body: body.account_type ? body : { recipient_id: (await ctx.payee()).id, ...body },
      },
      'POST',
    )(ctx);

/** A divergence unless the answer's text matches `re` (`what` says what it should say). */
const says = (re: RegExp, what: string) => (o: { body: unknown }) =>
  re.test(JSON.stringify(o.body)) ? [] : [`body: expected to say ${what}, does not`];

/** evidence §6: the partner's sandbox refuses every preview; the status is not recorded (400 or 422). */
const REFUSED = [400, 422] as const;
const PREVIEW_NOTE =
  'refused as the partner sandbox refuses it (400) by default; `payoutFees: { percent, fixed }` is an opt-in fee profile that answers quotes (the partner sandbox has none)';

/** spec 3.4 and evidence §6: the payout resource's status is UPPERCASE. */
const PAYOUT_STATUSES = [
  'CREATED',
  'PENDING',
  'PROCESSING',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'IN_REVIEW',
  'KYT_PENDING',
];

export const PAYOUT_PROBES: ConformanceProbe[] = [
  {
    id: 'payouts.get.unknown',
    area: 'payouts',
    behaviour: 'GET /v1/payouts/{id} for an unknown id answers 404',
    sources: [evidence('[D get-a-payout]')],
    writes: false,
    request: () => ({ method: 'GET', path: `/v1/payouts/${randomUUID()}` }),
    expect: { status: 404, shape: anyError },
  },
  {
    id: 'payouts.list',
    area: 'payouts',
    behaviour: 'GET /v1/payouts answers { payouts, page, limit, total, total_pages }',
    sources: [evidence('[T1 ExecutePayoutService]')],
    writes: false,
    request: { method: 'GET', path: '/v1/payouts?limit=1' },
    expect: {
      status: 200,
      shape: t.object({
        payouts: t.array(
          t.object({
            payout_id: t.string,
            user_id: t.string,
            virtual_account_id: t.string,
            status: t.string,
            payment_method: t.string,
          }),
        ),
        page: t.integer,
        limit: t.integer,
        total: t.integer,
        total_pages: t.integer,
      }),
    },
  },
  {
    id: 'payouts.list.unknown-param',
    area: 'payouts',
    behaviour: 'GET /v1/payouts with an unknown query parameter answers 400',
    sources: [evidence('[T1 ExecutePayoutService]')],
    writes: false,
    request: { method: 'GET', path: '/v1/payouts?conformance=1' },
    expect: { status: 400, shape: anyError },
  },
  {
    id: 'payouts.create',
    area: 'payouts',
    behaviour:
      'POST /v1/virtual-accounts/{id}/payout answers 201 with the id in id and status created (lowercase)',
    sources: [evidence('[T1 KiraApiClient]'), contract('§4.7')],
    writes: true,
    needs: ['activeVirtualAccount', 'payee'],
    creates: 'payout',
    provides: 'payout',
    cleanup: 'not cancellable through the API: a small amount to the run recipient',
    request: payoutOf10({ idempotencyKey: 'fresh' }),
    expect: { status: 201, shape: t.object({ id: t.string, status: t.enum('created') }) },
  },
  {
    id: 'payouts.get',
    area: 'payouts',
    behaviour:
      'GET /v1/payouts/{id} answers payout_id, an UPPERCASE status, origin, lowercase payment_method, decimal-string amounts, reference_number (null until sent), error_code and events[]',
    sources: [contract('§3.4, §6.4.4'), evidence('[D get-a-payout]'), evidence('[T1 ExecutePayoutService]')],
    writes: true,
    needs: ['payout'],
    request: async (ctx) => ({ method: 'GET', path: `/v1/payouts/${(await ctx.payout()).id}` }),
    expect: {
      status: 200,
      shape: t.object({
        payout_id: t.string,
        status: t.enum(...PAYOUT_STATUSES),
        origin: t.enum('api', 'payout', 'deposit'),
        payment_method: t.enum('wire', 'swift', 'wallet', 'ach', 'instant_pay', 'spei'),
        from_amount: t.string,
        from_currency: t.string,
        to_amount: t.string,
        to_currency: t.string,
        reference_number: t.nullable(t.string),
        error_code: t.nullable(t.string),
        events: t.array(t.object({ event_id: t.string, status: t.string, created_at: t.string })),
      }),
    },
  },
  {
    id: 'payouts.get.masked',
    area: 'payouts',
    behaviour:
      'A payout read masks account numbers in sender and recipient to ****1234 (recipient reads do not)',
    sources: [evidence('[D get-a-payout]')],
    writes: true,
    needs: ['payout'],
    request: async (ctx) => ({ method: 'GET', path: `/v1/payouts/${(await ctx.payout()).id}` }),
    expect: {
      status: 200,
      shape: t.object({
        sender: t.object({ account_number: t.string }),
        recipient: t.object({ account_number: t.string }),
      }),
    },
    verify: (o) => {
      const b = o.body as { sender: { account_number: string }; recipient: { account_number: string } };
      return (['sender', 'recipient'] as const)
        .filter((side) => !/^\*{4}[0-9A-Za-z]{4}$/.test(b[side].account_number))
        .map((side) => `body.${side}.account_number: expected masked as ****1234, it is not`);
    },
  },
  {
    id: 'payouts.create.missing-key',
    area: 'payouts',
    behaviour: 'POST /v1/virtual-accounts/{id}/payout without an Idempotency-Key is refused with 400',
    sources: [contract('§4.7'), evidence('[T3r DRIFT-36]')],
    writes: true,
    needs: ['virtualAccount', 'payee'],
    cleanup: 'nothing is created (refused)',
    request: payoutOf10({}),
    expect: { status: 400, shape: anyError },
  },
  {
    id: 'payouts.create.markup-not-object',
    area: 'payouts',
    behaviour:
      'A payout whose client_markup is not an object ("15.00") is refused 400 naming client_markup: the preview\'s rule, carried over to the execute body (inferred, not observed there)',
    sources: [evidence('[T3r DRIFT-42]'), evidence('[T1 ExecutePayoutService]')],
    writes: true,
    // An open, funded account: otherwise the account's state may be refused first (the sandbox
    // answers 422 for unusable funds before reading the body; the partner's order is not recorded).
    needs: ['activeVirtualAccount', 'payee'],
    cleanup:
      'nothing is created when refused; a partner that accepts it creates a payout of 10.00 to the run recipient, reported as unexpected (not cancellable through the API)',
    request: payoutOf10({ idempotencyKey: 'fresh' }, { client_markup: '15.00' }),
    expect: { status: 400, shape: anyError },
    verify: namesField('client_markup'),
  },
  {
    id: 'payouts.preview.fees-exceed',
    area: 'payouts',
    behaviour:
      'POST .../payout/preview (no Idempotency-Key) is refused in the partner sandbox: "Total fees exceed or equal the payout amount" (its fee profiles are at or above 100%; status not recorded)',
    sources: [evidence('[T3r DRIFT-45]'), evidence('[T1 ExecutePayoutService]')],
    writes: true,
    needs: ['virtualAccount', 'payee'],
    cleanup: 'nothing is created (a preview; create_quote is not sent)',
    request: preview({ amount: '100.00' }),
    expect: { status: REFUSED, shape: anyError },
    verify: says(/fees exceed or equal/i, '"Total fees exceed or equal the payout amount"'),
    sandbox: PREVIEW_NOTE,
  },
  {
    id: 'payouts.preview.wallet-no-fee-profile',
    area: 'payouts',
    behaviour:
      'A WALLET preview is refused: "No fee profile configured for product usa-va-fiat-to-crypto-payout" (status not recorded)',
    sources: [evidence('[T3r DRIFT-46]')],
    writes: true,
    needs: ['virtualAccount'],
    cleanup: 'nothing is created (a preview)',
    request: preview({ amount: '100.00', account_type: 'WALLET' }),
    expect: { status: REFUSED, shape: anyError },
    verify: says(/no fee profile configured/i, '"No fee profile configured ..."'),
    sandbox: PREVIEW_NOTE,
  },
  {
    id: 'payouts.preview.null-is-type-error',
    area: 'payouts',
    behaviour:
      'A preview field sent as null (client_markup: null) is a type error naming it (400), not an absent field',
    sources: [evidence('[T3r DRIFT-41, 42, 43]')],
    writes: true,
    needs: ['virtualAccount', 'payee'],
    cleanup: 'nothing is created (refused)',
    request: preview({ amount: '100.00', client_markup: null }),
    expect: { status: 400, shape: anyError },
    verify: namesField('client_markup'),
  },
  {
    id: 'payouts.preview.amount-format',
    area: 'payouts',
    behaviour:
      'A preview amount that is not a decimal string with at most 2 decimals (10.001) is refused 400 naming amount',
    sources: [evidence('[T3r DRIFT-41, 42, 43]')],
    writes: true,
    needs: ['virtualAccount', 'payee'],
    cleanup: 'nothing is created (refused)',
    request: preview({ amount: '10.001' }),
    expect: { status: 400, shape: anyError },
    verify: namesField('amount'),
  },
];
