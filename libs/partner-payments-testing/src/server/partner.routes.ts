import { Router } from 'express';
import { registerAuthRoutes } from '../resources/auth/auth.routes';
import { registerClientRoutes } from '../resources/clients/clients.routes';
import { sendRouteNotMatched } from './http-errors.util';
import { registerPayoutRoutes } from '../resources/payouts/payouts.routes';
import { registerPayoutPreviewRoutes } from '../resources/payouts/payout-preview.routes';
import { registerRecipientRoutes } from '../resources/recipients/recipients.routes';
import { registerReferenceDataRoutes } from '../resources/reference-data/reference-data.routes';
import { registerUnlistedRoutes } from '../resources/unlisted/unlisted.routes';
import { registerRfiRoutes } from '../resources/rfis/rfis.routes';
import type { SandboxContext } from './sandbox-context.util';
import { registerUserRoutes } from '../resources/users/users.routes';
import { registerVersioningRoutes } from '../resources/versioning/versioning.routes';
import { registerDepositRoutes } from '../resources/virtual-accounts/deposits.routes';
import { registerLiquidationAddressRoutes } from '../resources/virtual-accounts/liquidation-addresses.routes';
import { registerVirtualAccountRoutes } from '../resources/virtual-accounts/virtual-accounts.routes';

/** Every partner route (spec 4), mounted at `/` and under `/sandbox` (spec 1). */
export function createPartnerRouter(ctx: SandboxContext): Router {
  const router = Router({ caseSensitive: true, strict: false });
  // Express answers OPTIONS on a known path by itself (200 + Allow, no auth); the partner's gateway
  // answers a CORS preflight instead (corsPreflight, before this router), so an OPTIONS reaching
  // here has no route: spec 7.5, unmatched routes answer 403 invalid_request.
  router.use((req, res, next) => (req.method === 'OPTIONS' ? sendRouteNotMatched(res) : next()));
  registerAuthRoutes(router, ctx);
  registerVersioningRoutes(router, ctx);
  registerClientRoutes(router, ctx);
  registerUserRoutes(router, ctx);
  registerRecipientRoutes(router, ctx);
  // Before the accounts' routes: GET /v1/virtual-accounts/deposits is not an account id.
  registerDepositRoutes(router, ctx);
  registerVirtualAccountRoutes(router, ctx);
  registerLiquidationAddressRoutes(router, ctx);
  registerPayoutPreviewRoutes(router, ctx);
  registerPayoutRoutes(router, ctx);
  registerRfiRoutes(router, ctx);
  registerReferenceDataRoutes(router, ctx);
  registerUnlistedRoutes(router, ctx);
  return router;
}
