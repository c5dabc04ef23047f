import type { Request, Response } from 'express';
import helmet from 'helmet';
import type { SandboxContext } from '../server/sandbox-context.util';
import { isVersionString, resolveVersion } from '../server/versioning.util';

/**
 * evidence §11 N4 [T3raw versioning/01, recipients/02]: the partner's API (the app behind its
 * gateway) answers with helmet's security headers, its defaults but for a 180-day
 * strict-transport-security (`max-age=15552000; includeSubDomains`, helmet's default before v8).
 */
const securityHeaders = helmet({ strictTransportSecurity: { maxAge: 15_552_000 } });

/**
 * The headers of every answer of the API, its refusals included (evidence §11 N4, N5): the
 * security set and x-api-version. The weak etag and the `application/json; charset=utf-8`
 * content-type come from Express itself (the app's `etag` setting, res.json). The gateway's own
 * answers carry none of them (sendPlainJson).
 */
export function setAppHeaders(ctx: SandboxContext, req: Request, res: Response): void {
  // helmet only sets headers and calls next at once: nothing to wait for.
  securityHeaders(req, res, () => undefined);
  setVersionHeader(ctx, req, res);
}

/**
 * evidence §11 N5: every answer of the API carries x-api-version, also its refusals of a body it
 * cannot read. The header sent is echoed even when unknown (accepted silently, [T3r DRIFT-11]; the
 * behaviour is the resolved, known version's); without one, the version in force (the pin).
 */
function setVersionHeader(ctx: SandboxContext, req: Request, res: Response): void {
  const header = req.get('x-api-version');
  const pinned = ctx.store.accountByApiKey(req.get('x-api-key'))?.pinnedVersion;
  res.set('X-Api-Version', isVersionString(header) ? header : resolveVersion(undefined, pinned));
}
