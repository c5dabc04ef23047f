/** Liquidation addresses of a virtual account (spec 4.6, evidence §5). */
import type { Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { isUuid } from '../../server/ids.util';
import { requireIdempotencyKey } from '../../middleware/idempotency.middleware';
import { sendNotFound, sendValidation } from '../../server/http-errors.util';
import type { FieldError } from '../metadata.rules';
import { requestState, type SandboxContext } from '../../server/sandbox-context.util';
import { addLiquidationAddress } from '../../control/scenario.service';
import { findOwnVirtualAccount } from './virtual-accounts.routes';

export function registerLiquidationAddressRoutes(router: Router, ctx: SandboxContext): void {
  /**
   * evidence §5 [T2][D for-ai-agents]: `{network, token, recipient_id}` with an Idempotency-Key (one of
   * the six keyed endpoints); spec 4.6: X-Api-Version required. The answer's shape is an open question
   * (evidence question 4): the created entry, as the list shows it.
   */
  router.post(
    '/v1/virtual-accounts/:id/liquidation-address',
    withVersion(ctx, { required: true }),
    requireAuth(ctx),
    requireIdempotencyKey(ctx),
    (req, res) => {
      const va = findOwnVirtualAccount(ctx, res, String(req.params.id));
      if (!va) return;
      const b = requestState(res).body as Record<string, unknown> | undefined;
      if (typeof b !== 'object' || b === null || Array.isArray(b))
        return sendValidation(res, [{ field: 'body', message: 'must be a JSON object' }]);
      const errors: FieldError[] = [];
      for (const field of ['network', 'token'] as const)
        if (typeof b[field] !== 'string' || b[field] === '') errors.push({ field, message: 'is required' });
      if (!isUuid(b.recipient_id)) errors.push({ field: 'recipient_id', message: 'must be a UUID' });
      if (errors.length) return sendValidation(res, errors);
      const recipient = ctx.store.recipients.get(String(b.recipient_id).toLowerCase());
      if (!recipient || recipient.clientUuid !== va.clientUuid || recipient.user_id !== va.user_id)
        return sendNotFound(res, 'Recipient');
      const record = addLiquidationAddress(ctx, va.virtual_account_id, {
        network: b.network,
        token: b.token,
        recipient: { recipient_id: recipient.recipient_id },
      });
      res.status(201).json(record);
    },
  );

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
