import type { Response, Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { buildVirtualAccountCreated } from '../../webhooks/event.builders';
import { isUuid, newId, nowIso, randomDigits } from '../../server/ids.util';
import { requireIdempotencyKey } from '../../middleware/idempotency.middleware';
import { sendError, sendNotFound, sendRouteNotMatched, sendValidation } from '../../server/http-errors.util';
import { validateMetadata, type FieldError } from '../metadata.rules';
import { accountOf, requestState, type SandboxContext } from '../../server/sandbox.context';
import type { DepositRecord, VirtualAccountRecord } from '../../server/state.types';

export const virtualAccountView = (va: VirtualAccountRecord) => {
  const { clientUuid: _c, ...view } = va;
  return { ...view, metadata: { ...va.metadata } };
};
export const depositView = (d: DepositRecord) => ({ ...d, source: { ...d.source } });

/** The caller's virtual account, or answers 403 (malformed id) / 404 (missing or not yours). */
export function findOwnVirtualAccount(
  ctx: SandboxContext,
  res: Response,
  id: string,
): VirtualAccountRecord | undefined {
  if (!isUuid(id)) return void sendRouteNotMatched(res);
  const va = ctx.store.virtualAccounts.get(id.toLowerCase());
  if (!va || va.clientUuid !== accountOf(res).clientUuid) return void sendNotFound(res, 'Virtual account');
  return va;
}

/** provider-facts Virtual accounts and deposits; spec 4.6 liquidation addresses. */
export function registerVirtualAccountRoutes(router: Router, ctx: SandboxContext): void {
  const auth = [withVersion(ctx), requireAuth(ctx)];

  router.post('/v1/virtual-accounts', ...auth, requireIdempotencyKey(ctx), (_req, res) => {
    const b = requestState(res).body as Record<string, unknown> | undefined;
    const account = accountOf(res);
    const errors: FieldError[] = [];
    if (typeof b !== 'object' || b === null)
      return sendValidation(res, [{ field: 'body', message: 'must be a JSON object' }]);
    if (!isUuid(b.user_id)) errors.push({ field: 'user_id', message: 'must be a UUID' });
    if (b.type !== 'US_BANK') errors.push({ field: 'type', message: 'must be US_BANK' });
    if (typeof b.bank !== 'string')
      errors.push({ field: 'bank', message: 'bank is required for US_BANK virtual accounts' });
    if (b.mode !== undefined && typeof b.mode !== 'string')
      errors.push({ field: 'mode', message: 'must be a string' });
    if (b.destination !== undefined && (typeof b.destination !== 'object' || b.destination === null)) {
      errors.push({ field: 'destination', message: 'must be an object' });
    }
    errors.push(...validateMetadata(b.metadata));
    if (errors.length) return sendValidation(res, errors);
    const user = ctx.store.users.get(String(b.user_id).toLowerCase());
    if (!user || user.clientUuid !== account.clientUuid) return sendNotFound(res, 'User');
    if (user.status !== 'VERIFIED') {
      return sendValidation(res, [
        { field: 'user_id', message: `user must be VERIFIED (is ${user.status})` },
      ]);
    }
    // evidence §5 [T1s §3.14 D3]: the user's verification is checked before the bank.
    if (!account.authorizedBanks.includes(String(b.bank))) {
      return sendValidation(res, [
        {
          field: 'bank',
          message: `must be one of the authorized banks (${account.authorizedBanks.join(', ') || 'none'})`,
        },
      ]);
    }
    const duplicate = [...ctx.store.virtualAccounts.values()].some(
      (v) => v.user_id === user.user_id && v.bank === b.bank,
    );
    if (duplicate)
      return sendError(res, 409, 'conflict', `User already has a virtual account at ${String(b.bank)}`);
    const now = nowIso();
    const va: VirtualAccountRecord = {
      virtual_account_id: newId(),
      clientUuid: account.clientUuid,
      user_id: user.user_id,
      type: 'US_BANK',
      bank: String(b.bank),
      mode: (b.mode as string | undefined) ?? null,
      destination: (b.destination as Record<string, unknown> | undefined) ?? null,
      status: 'approved',
      account_number: randomDigits(12),
      routing_number: '021000021',
      metadata: { ...((b.metadata as Record<string, string> | undefined) ?? {}) },
      created_at: now,
      updated_at: now,
    };
    ctx.store.virtualAccounts.set(va.virtual_account_id, va);
    ctx.telemetry.created('virtual_accounts');
    // spec 6.4.1: virtual_account.created echoes the persisted metadata.
    const { account_number: _n, routing_number: _r, destination: _d, ...eventData } = virtualAccountView(va);
    ctx.webhooks.emit(account.clientUuid, buildVirtualAccountCreated(eventData));
    res.status(201).json(virtualAccountView(va));
  });

  router.get('/v1/virtual-accounts/:id', ...auth, (req, res) => {
    const va = findOwnVirtualAccount(ctx, res, String(req.params.id));
    if (va) res.json(virtualAccountView(va));
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

  /** spec 4.6: X-Api-Version required; provider-facts: a bare array, [] when none, 404 missing or not yours. */
  router.get(
    '/v1/virtual-accounts/:id/liquidation-address',
    withVersion(ctx, { required: true }),
    requireAuth(ctx),
    (req, res) => {
      const va = findOwnVirtualAccount(ctx, res, String(req.params.id));
      if (!va) return;
      const list = [...ctx.store.liquidationAddresses.values()].filter(
        (l) => l.virtual_account_id === va.virtual_account_id,
      );
      res.json(list);
    },
  );
}
