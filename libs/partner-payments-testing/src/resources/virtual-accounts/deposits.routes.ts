/**
 * The deposits of the partner's virtual accounts: listed for every account (paged) and for one
 * (bare array), read one by one, and the sandbox-only simulate-deposit (evidence §5).
 */
import type { Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { isUuid } from '../../server/ids.util';
import { sandboxOnly } from '../../middleware/sandbox-only.middleware';
import { sendError, sendNotFound, sendRouteNotMatched, sendValidation } from '../../server/http-errors.util';
import { accountOf, requestState, type SandboxContext } from '../../server/sandbox-context.util';
import { isProvisioned } from './virtual-account-status.util';
import { simulateDeposit } from '../../control/scenario.service';
import { formatCents, parseAmountCents } from '../../server/amounts.util';
import { depositView, byCreated, findOwnVirtualAccount } from './virtual-accounts.routes';

export function registerDepositRoutes(router: Router, ctx: SandboxContext): void {
  const auth = [withVersion(ctx), requireAuth(ctx)];

  /** evidence §5 [T1 REVISION-DOCS §3.3]: deposits of every account, paged by `page`. */
  router.get('/v1/virtual-accounts/deposits', ...auth, (req, res) => {
    const q = req.query as Record<string, unknown>;
    const page = q.page === undefined ? 1 : Number(q.page);
    const limit = q.limit === undefined ? 20 : Number(q.limit);
    if (!Number.isInteger(page) || page < 1)
      return sendValidation(res, [{ field: 'page', message: 'must be an integer >= 1' }]);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return sendValidation(res, [{ field: 'limit', message: 'must be an integer from 1 to 100' }]);
    const mine = new Set(
      [...ctx.store.virtualAccounts.values()]
        .filter((v) => v.clientUuid === accountOf(res).clientUuid)
        .map((v) => v.virtual_account_id),
    );
    const rows = [...ctx.store.deposits.values()]
      .filter((d) => mine.has(d.virtual_account_id))
      .filter((d) => typeof q.status !== 'string' || d.status === q.status)
      .filter(
        (d) =>
          typeof q.virtual_account_id !== 'string' ||
          d.virtual_account_id === q.virtual_account_id.toLowerCase(),
      )
      .filter((d) => typeof q.user_id !== 'string' || d.user_id === q.user_id.toLowerCase())
      .sort(byCreated);
    res.json({
      data: rows.slice((page - 1) * limit, page * limit).map(depositView),
      pagination: {
        page,
        limit,
        total: rows.length,
        total_pages: Math.max(1, Math.ceil(rows.length / limit)),
      },
    });
  });

  /** evidence §5 [T1 KiraApiClient]: a bare array, `limit` 1-100 + `offset`. */
  router.get('/v1/virtual-accounts/:id/deposits', ...auth, (req, res) => {
    const va = findOwnVirtualAccount(ctx, res, String(req.params.id));
    if (!va) return;
    const q = req.query as Record<string, unknown>;
    const limit = q.limit === undefined ? 20 : Number(q.limit);
    const offset = q.offset === undefined ? 0 : Number(q.offset);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return sendValidation(res, [{ field: 'limit', message: 'must be an integer from 1 to 100' }]);
    if (!Number.isInteger(offset) || offset < 0)
      return sendValidation(res, [{ field: 'offset', message: 'must be an integer >= 0' }]);
    const rows = [...ctx.store.deposits.values()]
      .filter((d) => d.virtual_account_id === va.virtual_account_id)
      .sort(byCreated);
    res.json(rows.slice(offset, offset + limit).map(depositView));
  });

  /**
   * evidence §5 [T1 KiraApiClient, REVISION-DOCS §5]: sandbox only (the root, the production base,
   * answers 403), credits
   * the balance at once; amount `11` is the magic value that gives `REFUNDED`. The body is an open
   * question (evidence: open question 8): `{amount, currency?}`; the answer here is the deposit.
   */
  router.post('/v1/virtual-accounts/:id/simulate-deposit', sandboxOnly, ...auth, (req, res) => {
    const va = findOwnVirtualAccount(ctx, res, String(req.params.id));
    if (!va) return;
    const b = (requestState(res).body ?? {}) as Record<string, unknown>;
    if (typeof b !== 'object' || b === null || Array.isArray(b))
      return sendValidation(res, [{ field: 'body', message: 'must be a JSON object' }]);
    // evidence §6 [T3r DRIFT-41]: the amount pattern; read into exact cents (amounts.util).
    const cents = parseAmountCents(b.amount);
    if (cents === undefined || cents <= 0n)
      return sendValidation(res, [
        { field: 'amount', message: 'must be a positive decimal string such as "100.00"' },
      ]);
    if (b.currency !== undefined && b.currency !== 'USD')
      return sendValidation(res, [{ field: 'currency', message: 'must be USD' }]);
    if (!isProvisioned(va))
      return sendError(
        res,
        400,
        'bad_request',
        `Virtual account is ${va.status}; it cannot receive funds yet`,
      );
    // The magic `11` (evidence §5) in any spelling the pattern allows ("11", "11.0", "011.00"),
    // decided on exact cents as every other amount comparison.
    const refunded = cents === 1100n;
    const deposit = simulateDeposit(ctx, va.virtual_account_id, {
      // Normalised to 2 decimals as before ("250.5" → "250.50"), from the cents, not a float.
      amount: formatCents(cents),
      status: refunded ? 'REFUNDED' : 'COMPLETED',
    });
    res.status(201).json(depositView(deposit));
  });

  router.get('/v1/virtual-accounts/:id/deposits/:depositId', ...auth, (req, res) => {
    const va = findOwnVirtualAccount(ctx, res, String(req.params.id));
    if (!va) return;
    const depositId = String(req.params.depositId);
    if (!isUuid(depositId)) return sendRouteNotMatched(res);
    const deposit = ctx.store.deposits.get(depositId.toLowerCase());
    if (!deposit || deposit.virtual_account_id !== va.virtual_account_id) return sendNotFound(res, 'Deposit');
    res.json(depositView(deposit));
  });
}
