import { Router } from 'express';
import { registerAuthRoutes } from './auth.routes';
import { registerClientRoutes } from './clients.routes';
import { sendRouteNotMatched } from './http-errors.util';
import { registerPayoutRoutes } from './payouts.routes';
import { registerRecipientRoutes } from './recipients.routes';
import { registerRfiRoutes } from './rfis.routes';
import type { SandboxContext } from './sandbox.context';
import { registerUserRoutes } from './users.routes';
import { registerVersioningRoutes } from './versioning.routes';
import { registerVirtualAccountRoutes } from './virtual-accounts.routes';

/** Every partner route (spec 4), mounted at `/` and under `/sandbox` (spec 1). */
export function createPartnerRouter(ctx: SandboxContext): Router {
  const router = Router({ caseSensitive: true, strict: false });
  // Express answers OPTIONS on a known path by itself (200 + Allow, no auth); the partner has no
  // such route: spec 7.5, unmatched routes answer 403 invalid_request.
  router.use((req, res, next) => (req.method === 'OPTIONS' ? sendRouteNotMatched(res) : next()));
  registerAuthRoutes(router, ctx);
  registerVersioningRoutes(router, ctx);
  registerClientRoutes(router, ctx);
  registerUserRoutes(router, ctx);
  registerRecipientRoutes(router, ctx);
  registerVirtualAccountRoutes(router, ctx);
  registerPayoutRoutes(router, ctx);
  registerRfiRoutes(router, ctx);
  return router;
}
