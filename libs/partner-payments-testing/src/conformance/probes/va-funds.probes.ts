/**
 * Virtual account lifecycle and funds (evidence §5): lists, the status vocabulary by version,
 * balance only once active, deposits as a bare array per account and paged across accounts.
 */
import type { ConformanceProbe, ProbeContext, ProbeRequest } from '../probe.types';
import { t } from '../shape.util';
import { anyError, evidence } from './probe.shapes';

/**
 * evidence §5 [D state-machines][T1 REVISION-DOCS §2.3]: the status words depend on the version;
 * 2026-06-01 has pending, activating, active, failed, deactivated (+ frozen).
 */
const STATUS_2026_04_14 = ['rfi', 'approved', 'declined', 'deactivated', 'frozen'];

/** GET the run's new virtual account under `version`. */
const newAccountAt =
  (version: string) =>
  async (ctx: ProbeContext): Promise<ProbeRequest> => ({
    method: 'GET',
    path: `/v1/virtual-accounts/${(await ctx.newVirtualAccount()).id}`,
    version,
  });

/** An account's available balance as a number (evidence §5: `available_balance`). */
async function balanceOf(ctx: ProbeContext, id: string): Promise<number> {
  const answer = await ctx.send({ method: 'GET', path: `/v1/virtual-accounts/${id}/balance` });
  return Number((answer.body as { available_balance?: unknown } | undefined)?.available_balance);
}
const balanceBefore = new Map<string, number>();

const depositRow = t.object({ amount: t.string, currency: t.string, status: t.string });

export const VA_FUNDS_PROBES: ConformanceProbe[] = [
  {
    id: 'virtual-accounts.list',
    area: 'virtual-accounts',
    behaviour:
      'GET /v1/virtual-accounts answers { data, pagination } like users; provider and currency are null in the list',
    sources: [evidence('[T2s Common.cs]'), evidence('[D known-limitations]')],
    writes: false,
    request: { method: 'GET', path: '/v1/virtual-accounts?limit=1' },
    expect: {
      status: 200,
      shape: t.object({
        data: t.array(
          t.object({ virtual_account_id: t.string, status: t.string, provider: t.null, currency: t.null }),
        ),
        pagination: t.object({ total: t.integer, limit: t.integer }),
      }),
    },
    sandbox:
      '`pagination` is `{ page, limit, total, total_pages }` (T2 sends `page`; the evidence does not show the fields)',
  },
  {
    id: 'virtual-accounts.status-2026-04-14',
    area: 'virtual-accounts',
    behaviour:
      'On 2026-04-14 a virtual account status is one of rfi, approved, declined, deactivated (+ frozen)',
    sources: [evidence('[D state-machines]'), evidence('[T1 REVISION-DOCS §2.3]')],
    writes: true,
    needs: ['newVirtualAccount'],
    request: newAccountAt('2026-04-14'),
    expect: {
      status: 200,
      shape: t.object({ virtual_account_id: t.string, status: t.enum(...STATUS_2026_04_14) }),
    },
  },
  {
    id: 'virtual-accounts.status-2026-06-01',
    area: 'virtual-accounts',
    behaviour:
      'On 2026-06-01 a new virtual account is pending or activating (then active, failed, deactivated, frozen)',
    sources: [evidence('[D state-machines]'), evidence('[T1 REVISION-DOCS §2.3]')],
    writes: true,
    needs: ['newVirtualAccount'],
    request: newAccountAt('2026-06-01'),
    expect: { status: 200, shape: t.object({ status: t.enum('pending', 'activating') }) },
  },
  {
    id: 'virtual-accounts.balance-activating',
    area: 'virtual-accounts',
    behaviour: 'GET .../balance of a virtual account that is not active yet answers 400',
    sources: [evidence('[D known-limitations]'), evidence('[T1 KiraApiClient]')],
    writes: true,
    needs: ['newVirtualAccount'],
    request: async (ctx) => ({
      method: 'GET',
      path: `/v1/virtual-accounts/${(await ctx.newVirtualAccount()).id}/balance`,
    }),
    expect: { status: 400, shape: anyError },
  },
  {
    id: 'virtual-accounts.balance',
    area: 'virtual-accounts',
    behaviour: 'GET .../balance of an active virtual account answers 200 with available_balance',
    sources: [evidence('[D known-limitations]'), evidence('[T1 KiraApiClient]')],
    writes: true,
    needs: ['activeVirtualAccount'],
    request: async (ctx) => ({
      method: 'GET',
      path: `/v1/virtual-accounts/${(await ctx.activeVirtualAccount()).id}/balance`,
    }),
    expect: { status: 200, shape: t.object({ available_balance: t.oneOf(t.string, t.number) }) },
  },
  {
    id: 'virtual-accounts.deposits',
    area: 'virtual-accounts',
    behaviour: 'GET .../deposits of a virtual account answers a bare array (limit 1-100, offset)',
    sources: [evidence('[T1 KiraApiClient]')],
    writes: true,
    needs: ['virtualAccount'],
    request: async (ctx) => ({
      method: 'GET',
      path: `/v1/virtual-accounts/${(await ctx.virtualAccount()).id}/deposits?limit=10`,
    }),
    expect: { status: 200, shape: t.array(depositRow) },
  },
  {
    id: 'virtual-accounts.all-deposits',
    area: 'virtual-accounts',
    behaviour: 'GET /v1/virtual-accounts/deposits lists the deposits of every account, paged by page',
    sources: [evidence('[T1 REVISION-DOCS §3.3]')],
    writes: false,
    request: { method: 'GET', path: '/v1/virtual-accounts/deposits?page=1' },
    expect: { status: 200, shape: t.object({ data: t.array(depositRow) }) },
    sandbox: 'the envelope `{ data, pagination }` is ours (the evidence names only `page`)',
  },
  {
    id: 'virtual-accounts.simulate-deposit',
    area: 'virtual-accounts',
    behaviour:
      'POST .../simulate-deposit (sandbox only) credits an active account at once: the balance grows by the amount',
    sources: [evidence('[T1 KiraApiClient]'), evidence('[T1 REVISION-DOCS §5]')],
    writes: true,
    needs: ['activeVirtualAccount'],
    creates: 'deposit',
    cleanup: 'a simulated deposit stays on the account',
    request: async (ctx) => {
      const id = (await ctx.activeVirtualAccount()).id;
      balanceBefore.set(ctx.runId, await balanceOf(ctx, id));
      return {
        method: 'POST',
        path: `/v1/virtual-accounts/${id}/simulate-deposit`,
        body: { amount: '25.00' },
      };
    },
    expect: { status: [200, 201], shape: t.object({}) },
    verify: async (_o, ctx) => {
      const after = await balanceOf(ctx, (await ctx.activeVirtualAccount()).id);
      const before = balanceBefore.get(ctx.runId) ?? NaN;
      return Math.round((after - before) * 100) === 2500
        ? []
        : ['balance: expected to grow by 25.00 at once, it did not'];
    },
    sandbox:
      'the request body and the answer are not shown (evidence open question 8): ours take `{ amount }` and answer the deposit',
  },
];
