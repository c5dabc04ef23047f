/**
 * Deposits (evidence §5): a bare array per account paged by limit and offset, paged by page across
 * accounts, read one by one, and the sandbox-only simulate-deposit (amount 11 refunds).
 */
import type { ConformanceProbe, ProbeContext, ProbeRequest } from '../../probe.types';
import { t } from '../../shape.util';
import { ProbeSkipped } from '../../conformance-context.service';
import { contract, evidence, onRunAccount } from '../probe-shapes.util';

/** An account's available balance as a number (evidence §5: `available_balance`). */
async function balanceOf(ctx: ProbeContext, id: string): Promise<number> {
  const answer = await ctx.send({ method: 'GET', path: `/v1/virtual-accounts/${id}/balance` });
  return Number((answer.body as { available_balance?: unknown } | undefined)?.available_balance);
}
const balanceBefore = new Map<string, number>();

/** evidence §5 [T2]: a row carries amount (a decimal string), currency, status, created_at. */
const depositRow = t.object({ amount: t.string, currency: t.string, status: t.string, created_at: t.string });

/** GET .../deposits of the run's account, `query` appended. */
const depositsOf = (query: string) => onRunAccount(`/deposits?${query}`);

/** POST simulate-deposit of `amount` to the run's open account, noting its balance first. */
const simulate =
  (amount: string) =>
  async (ctx: ProbeContext): Promise<ProbeRequest> => {
    const id = (await ctx.activeVirtualAccount()).id;
    balanceBefore.set(ctx.runId, await balanceOf(ctx, id));
    return { method: 'POST', path: `/v1/virtual-accounts/${id}/simulate-deposit`, body: { amount } };
  };

/** The run account's deposit at `offset`, as JSON (`null` when none). */
async function depositAt(ctx: ProbeContext, offset: number): Promise<string | undefined> {
  const answer = await ctx.send(await depositsOf(`limit=1&offset=${offset}`)(ctx));
  return Array.isArray(answer.body) ? JSON.stringify(answer.body[0] ?? null) : undefined;
}

/** How much the run account's balance moved since `simulate` noted it, in cents. */
async function balanceMoved(ctx: ProbeContext): Promise<number> {
  const after = await balanceOf(ctx, (await ctx.activeVirtualAccount()).id);
  return Math.round((after - (balanceBefore.get(ctx.runId) ?? NaN)) * 100);
}

/** The id of the run account's first deposit (`deposit_id`, or `id` as a [T2] fixture names it). */
async function firstDepositId(ctx: ProbeContext): Promise<string | undefined> {
  const answer = await ctx.send(await depositsOf('limit=1&offset=0')(ctx));
  const row = (Array.isArray(answer.body) ? answer.body[0] : undefined) as
    { deposit_id?: unknown; id?: unknown } | undefined;
  const id = row?.deposit_id ?? row?.id;
  return typeof id === 'string' ? id : undefined;
}

export const DEPOSIT_PROBES: ConformanceProbe[] = [
  {
    id: 'virtual-accounts.deposits',
    area: 'virtual-accounts',
    behaviour: 'GET .../deposits of a virtual account answers a bare array (limit 1-100, offset)',
    sources: [evidence('[T1 KiraApiClient]')],
    writes: true,
    needs: ['virtualAccount'],
    request: depositsOf('limit=10'),
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
    request: simulate('25.00'),
    expect: { status: [200, 201], shape: t.object({}) },
    verify: async (_o, ctx) =>
      (await balanceMoved(ctx)) === 2500 ? [] : ['balance: expected to grow by 25.00 at once, it did not'],
    sandbox:
      'the request body and the answer are not shown (evidence open question 8): ours take `{ amount }` and answer the deposit',
  },
  {
    id: 'virtual-accounts.simulate-deposit.refund',
    area: 'virtual-accounts',
    behaviour:
      'A simulated deposit of amount 11 (the magic value) is refunded: the account gains a REFUNDED deposit and its balance does not move',
    sources: [evidence('[T1 KiraApiClient]'), evidence('[T1 REVISION-DOCS §5]')],
    writes: true,
    needs: ['activeVirtualAccount'],
    creates: 'deposit',
    cleanup: 'a refunded simulated deposit stays on the account',
    request: simulate('11'),
    expect: { status: [200, 201], shape: t.object({}) },
    verify: async (_o, ctx) => {
      const out =
        (await balanceMoved(ctx)) === 0 ? [] : ['balance: expected unchanged by a refund, it moved'];
      const rows = (await ctx.send(await depositsOf('limit=100')(ctx))).body;
      const refunded = Array.isArray(rows) && rows.some((r: { status?: unknown }) => r.status === 'REFUNDED');
      return refunded ? out : [...out, 'deposits: expected a REFUNDED deposit, none'];
    },
  },
  {
    id: 'virtual-accounts.deposits.paging',
    area: 'virtual-accounts',
    behaviour:
      'GET .../deposits pages by limit and offset: limit=1 answers at most one row, offset=1 the next one',
    sources: [evidence('[T1 KiraApiClient]')],
    writes: true,
    needs: ['virtualAccount'],
    request: depositsOf('limit=1&offset=0'),
    expect: { status: 200, shape: t.array(depositRow) },
    verify: async (o, ctx) => {
      const rows = o.body as unknown[];
      const out = rows.length <= 1 ? [] : [`body: expected at most 1 row for limit=1, got ${rows.length}`];
      const [first, second] = [JSON.stringify(rows[0] ?? null), await depositAt(ctx, 1)];
      // Several deposits by now (the funding, the simulated ones): offset 1 is another row.
      if (first !== 'null' && second !== 'null' && first === second)
        out.push('offset=1: expected the next deposit, got the same row as offset=0');
      return out;
    },
  },
  {
    id: 'virtual-accounts.deposit.get',
    area: 'virtual-accounts',
    behaviour:
      'GET /v1/virtual-accounts/{id}/deposits/{depositId} answers that deposit (its fields are not shown)',
    sources: [contract('§4.7'), evidence('open question 9')],
    writes: true,
    needs: ['virtualAccount'],
    request: async (ctx) => {
      const va = (await ctx.virtualAccount()).id;
      const depositId = await firstDepositId(ctx);
      if (!depositId)
        throw new ProbeSkipped('needs a deposit on the run account (only a funded account has one)');
      return { method: 'GET', path: `/v1/virtual-accounts/${va}/deposits/${depositId}` };
    },
    expect: { status: 200, shape: t.object({}) },
  },
];
