import type { Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { sendError, sendValidation } from '../../server/http-errors.util';
import { accountOf, requestState, type SandboxContext } from '../../server/sandbox-context.util';
import { BASELINE_VERSION, KNOWN_VERSIONS } from '../../server/versioning.util';

/**
 * spec 9.3 / provider-facts: POST /v1/versioning/upgrade { target_version } pins the account and
 * answers { previous_version, current_version }; the same target again is harmless (evidence §11 N6:
 * previous = current); older is refused. Its answer carries x-api-version like every other (N5).
 */
export function registerVersioningRoutes(router: Router, ctx: SandboxContext): void {
  router.post('/v1/versioning/upgrade', withVersion(ctx), requireAuth(ctx), (_req, res) => {
    const account = accountOf(res);
    const body = requestState(res).body as { target_version?: unknown } | undefined;
    const target = body?.target_version;
    if (typeof target !== 'string' || !target) {
      return sendValidation(res, [{ field: 'target_version', message: 'is required' }]);
    }
    if (!KNOWN_VERSIONS.includes(target) || target === BASELINE_VERSION) {
      return sendValidation(res, [{ field: 'target_version', message: `unsupported version ${target}` }]);
    }
    const previous = account.pinnedVersion ?? BASELINE_VERSION;
    if (target < previous) {
      return sendError(res, 400, 'validation_error', `Cannot downgrade from ${previous} to ${target}`, {
        errors: [{ field: 'target_version', message: `is older than the current version ${previous}` }],
      });
    }
    account.pinnedVersion = target;
    res.status(200).json({ previous_version: previous, current_version: target });
  });
}
