/** Virtual accounts: create, read and refusals (evidence §5, spec 4.6, 4.7). */
import { randomUUID } from 'node:crypto';
import type { ConformanceProbe } from '../../probe.types';
import { t } from '../../shape.util';
import { anyError, contract, evidence, onRunAccount, standardError } from '../probe-shapes.util';

const vaShape = t.object({
  virtual_account_id: t.string,
  user_id: t.string,
  status: t.string,
  metadata: t.object({}),
});

export const VIRTUAL_ACCOUNT_PROBES: ConformanceProbe[] = [
  {
    id: 'virtual-accounts.create',
    area: 'virtual-accounts',
    behaviour:
      'POST /v1/virtual-accounts for a VERIFIED user and an authorized bank answers 201 with virtual_account_id, user_id, status and metadata',
    sources: [evidence('[D create-a-virtual-account]'), contract('§4.7')],
    writes: true,
    needs: ['verifiedUser'],
    creates: 'virtual_account',
    // The run's second account (second authorized bank), left as the partner leaves a new one.
    provides: 'newVirtualAccount',
    cleanup: 'not deletable: no DELETE route is documented',
    request: async (ctx) => ({
      method: 'POST',
      path: '/v1/virtual-accounts',
      idempotencyKey: 'fresh',
      body: {
        user_id: (await ctx.verifiedUser()).id,
        type: 'US_BANK',
        bank: await ctx.authorizedBank(1),
        metadata: { conformance_run: ctx.runId },
      },
    }),
    expect: { status: 201, shape: vaShape },
  },
  {
    id: 'virtual-accounts.get',
    area: 'virtual-accounts',
    behaviour:
      'GET /v1/virtual-accounts/{id} answers the account with virtual_account_id, user_id, status and metadata',
    sources: [evidence('[D known-limitations]'), contract('§4.7')],
    writes: true,
    needs: ['virtualAccount'],
    request: onRunAccount(''),
    expect: { status: 200, shape: vaShape },
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
    behaviour:
      'GET /v1/virtual-accounts/{id} for an unknown id answers 404 { statusCode, error, message, timestamp }, the message naming the id',
    sources: [evidence('§11 N13 [T3raw security/bola-id-enumeration]'), contract('§7.1')],
    writes: false,
    request: () => ({ method: 'GET', path: `/v1/virtual-accounts/${randomUUID()}` }),
    expect: { status: 404, shape: standardError },
    verify: (o) => {
      const message = String((o.body as { message?: unknown }).message);
      return /^Virtual account [0-9a-f-]{36} not found$/i.test(message)
        ? []
        : [`body.message: expected "Virtual account <id> not found", got "${message}"`];
    },
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
    id: 'virtual-accounts.unauthorized-bank',
    area: 'virtual-accounts',
    behaviour:
      "A bank outside the account's authorizedBanks answers 400 naming bank for a VERIFIED user (an unknown id is the enum refusal, evidence §11 N32)",
    sources: [contract('§2.4'), evidence('§11 N32 [T4 log §7]'), evidence('[D create-a-virtual-account]')],
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
    request: onRunAccount(() => `/deposits/${randomUUID()}`),
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
    request: onRunAccount('/liquidation-address', { version: '2026-04-14' }),
    expect: { status: 200, shape: t.oneOf(t.array(t.object({})), t.object({})) },
  },
];
