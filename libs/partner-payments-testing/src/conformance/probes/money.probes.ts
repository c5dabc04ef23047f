/** Virtual accounts (evidence §5, spec 4.6, 4.7) and payouts (evidence §6, spec 3.4). */
import { randomUUID } from 'node:crypto';
import type { ConformanceProbe } from '../probe.types';
import { t } from '../shape.util';
import { anyError, contract, evidence } from './probe.shapes';

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

export const MONEY_PROBES: ConformanceProbe[] = [
  {
    id: 'virtual-accounts.unverified-user',
    area: 'virtual-accounts',
    behaviour: 'POST /v1/virtual-accounts for a user not yet VERIFIED answers 400 (checked before the bank)',
    sources: [evidence('[T1s §3.14 D3]'), evidence('[D create-a-virtual-account]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: async (ctx) => ({
      method: 'POST',
      path: '/v1/virtual-accounts',
      idempotencyKey: 'fresh',
      body: { user_id: (await ctx.user()).id, type: 'US_BANK', bank: 'conformance-no-such-bank' },
    }),
    expect: { status: 400, shape: anyError },
    verify: (o) =>
      /verif/i.test(JSON.stringify(o.body))
        ? []
        : ['body: expected to say the user is not VERIFIED (checked before the bank), does not'],
    sandbox:
      'the sandbox checks the fields (bank among them) before the user; a bank outside `authorizedBanks` makes this probe fail there',
  },
  {
    id: 'virtual-accounts.create',
    area: 'virtual-accounts',
    behaviour:
      'POST /v1/virtual-accounts for a VERIFIED user and an authorized bank answers 201 with virtual_account_id and status',
    sources: [evidence('[D create-a-virtual-account]'), contract('§4.7')],
    writes: true,
    needs: ['virtualAccount'],
    request: async (ctx) => ({
      method: 'GET',
      path: `/v1/virtual-accounts/${(await ctx.virtualAccount()).id}`,
    }),
    expect: {
      status: 200,
      shape: t.object({
        virtual_account_id: t.string,
        user_id: t.string,
        status: t.string,
        metadata: t.object({}),
      }),
    },
  },
  {
    id: 'virtual-accounts.one-per-user',
    area: 'virtual-accounts',
    behaviour: 'A second virtual account for the same user and bank answers 409',
    sources: [evidence('[D known-limitations]')],
    writes: true,
    needs: ['virtualAccount', 'clientUuid'],
    cleanup: 'nothing is created (refused)',
    request: async (ctx) => {
      const va = await ctx.virtualAccount();
      const first = await ctx.send({ method: 'GET', path: `/v1/virtual-accounts/${va.id}` });
      return {
        method: 'POST',
        path: '/v1/virtual-accounts',
        idempotencyKey: 'fresh',
        body: { user_id: va.userId, type: 'US_BANK', bank: (first.body as { bank?: string }).bank },
      };
    },
    expect: { status: 409, shape: anyError },
  },
  {
    id: 'virtual-accounts.get.unknown',
    area: 'virtual-accounts',
    behaviour: 'GET /v1/virtual-accounts/{id} for an unknown id answers 404',
    sources: [evidence('open question 10'), contract('§7.1')],
    writes: false,
    request: () => ({ method: 'GET', path: `/v1/virtual-accounts/${randomUUID()}` }),
    expect: { status: 404, shape: t.object({ message: t.string }) },
  },
  {
    id: 'virtual-accounts.liquidation-version-required',
    area: 'virtual-accounts',
    behaviour:
      'GET .../liquidation-address without X-Api-Version (required on this call) is refused with 400',
    sources: [contract('§4.6, §9.2')],
    writes: false,
    request: () => ({ method: 'GET', path: `/v1/virtual-accounts/${randomUUID()}/liquidation-address` }),
    expect: { status: 400, shape: anyError },
    sandbox:
      'the status of a missing required header is not shown: the sandbox answers 400 before looking the account up',
  },
  {
    id: 'virtual-accounts.bank-required',
    area: 'virtual-accounts',
    behaviour:
      'POST /v1/virtual-accounts without bank answers 400 "bank is required for US_BANK virtual accounts"',
    sources: [evidence('[D create-a-virtual-account]')],
    writes: true,
    needs: ['verifiedUser'],
    cleanup: 'nothing is created (refused)',
    request: async (ctx) => ({
      method: 'POST',
      path: '/v1/virtual-accounts',
      idempotencyKey: 'fresh',
      body: { user_id: (await ctx.verifiedUser()).id, type: 'US_BANK' },
    }),
    expect: { status: 400, shape: anyError },
    verify: (o) => (/bank/i.test(JSON.stringify(o.body)) ? [] : ['body: expected to name bank, does not']),
  },
  {
    id: 'virtual-accounts.unauthorized-bank',
    area: 'virtual-accounts',
    behaviour: "A bank outside the account's authorizedBanks answers 400 for a VERIFIED user",
    sources: [contract('§2.4'), evidence('[D create-a-virtual-account]')],
    knownConflict:
      "the partner's docs use real, environment-scoped bank names; CONTRACT WINS (<bank_a>..<bank_d>)",
    writes: true,
    needs: ['verifiedUser'],
    cleanup: 'nothing is created (refused)',
    request: async (ctx) => ({
      method: 'POST',
      path: '/v1/virtual-accounts',
      idempotencyKey: 'fresh',
      body: { user_id: (await ctx.verifiedUser()).id, type: 'US_BANK', bank: 'conformance-no-such-bank' },
    }),
    expect: { status: 400, shape: anyError },
    verify: (o) => (/bank/i.test(JSON.stringify(o.body)) ? [] : ['body: expected to name bank, does not']),
  },
  {
    id: 'virtual-accounts.deposit.unknown',
    area: 'virtual-accounts',
    behaviour: 'GET /v1/virtual-accounts/{id}/deposits/{depositId} for an unknown deposit answers 404',
    sources: [contract('§4.7, §7.1')],
    writes: true,
    needs: ['virtualAccount'],
    request: async (ctx) => ({
      method: 'GET',
      path: `/v1/virtual-accounts/${(await ctx.virtualAccount()).id}/deposits/${randomUUID()}`,
    }),
    expect: { status: 404, shape: anyError },
  },
  {
    id: 'virtual-accounts.liquidation-addresses',
    area: 'virtual-accounts',
    behaviour:
      'GET .../liquidation-address with X-Api-Version lists the addresses (a bare array; an object is tolerated)',
    sources: [contract('§4.6'), evidence('open question 4')],
    writes: true,
    needs: ['virtualAccount'],
    request: async (ctx) => ({
      method: 'GET',
      path: `/v1/virtual-accounts/${(await ctx.virtualAccount()).id}/liquidation-address`,
      version: '2026-04-14',
    }),
    expect: { status: 200, shape: t.oneOf(t.array(t.object({})), t.object({})) },
  },
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
    request: async (ctx) => ({
      method: 'POST',
      path: `/v1/virtual-accounts/${(await ctx.virtualAccount()).id}/payout`,
      idempotencyKey: 'fresh',
      body: { recipient_id: (await ctx.payee()).id, amount: '10.00', currency: 'USD' },
    }),
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
    request: async (ctx) => ({
      method: 'POST',
      path: `/v1/virtual-accounts/${(await ctx.virtualAccount()).id}/payout`,
      body: { recipient_id: (await ctx.payee()).id, amount: '10.00', currency: 'USD' },
    }),
    expect: { status: 400, shape: anyError },
  },
];
