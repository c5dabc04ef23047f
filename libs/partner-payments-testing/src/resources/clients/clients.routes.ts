import type { Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { isUuid } from '../../server/ids.util';
import { sendError } from '../../server/http-errors.util';
import { accountOf, type SandboxContext } from '../../server/sandbox-context.util';
import type { ClientAccount } from '../../server/state.types';

export function clientConfigView(account: ClientAccount) {
  return {
    client: {
      id: account.id,
      client_uuid: account.clientUuid,
      company_name: account.companyName,
      pct_fee: '0.00',
      fixed_fee: '0.00',
      usd_usdc_fee: null,
      logo_url: 'https://sandbox.invalid/logo.png',
      created_ts: account.createdAt,
      updated_ts: account.updatedAt,
    },
    client_wallets: account.wallet,
    client_vault: account.vault,
    authorizedBanks: [...account.authorizedBanks],
  };
}

/** spec 4.5 / 2.4 + provider-facts: GET /v1/clients/{client_uuid} → { success, data }; 400 / 403 / 404. */
export function registerClientRoutes(router: Router, ctx: SandboxContext): void {
  router.get('/v1/clients/:clientUuid', withVersion(ctx), requireAuth(ctx), (req, res) => {
    const uuid = String(req.params.clientUuid);
    if (!isUuid(uuid)) return sendError(res, 400, 'validation_error', 'client_uuid must be a UUID');
    const caller = accountOf(res);
    if (uuid.toLowerCase() !== caller.clientUuid.toLowerCase()) {
      if (ctx.store.accounts.has(uuid.toLowerCase()) || ctx.store.accounts.has(uuid)) {
        return sendError(res, 403, 'invalid_request', 'The client UUID is not your own');
      }
      return sendError(res, 404, 'not_found', 'Client record not found');
    }
    res.status(200).json({ success: true, data: clientConfigView(caller) });
  });
}
