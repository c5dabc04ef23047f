import type { Request, RequestHandler, Response } from 'express';
import { sendError, sendRouteNotMatched } from '../server/http-errors.util';
import { requestState, type SandboxContext } from '../server/sandbox-context.util';
import { isVersionString, resolveVersion, versionAtLeast } from '../server/versioning.util';

/**
 * evidence §1/§2 [T3r DRIFT-6, 49]: on any path, POST /auth included, a call with no x-api-key at
 * all (or a bearer only) is answered by the partner's gateway before the API sees it: 403
 * `{message:"Forbidden"}` with an `x-amzn-errortype` header (the contract states no body for it).
 * Answers that and returns true when the header is missing; returns false (nothing sent) otherwise.
 * A present but wrong key is the API's 401 (spec 5.7), not this.
 */
export function rejectMissingApiKey(req: Request, res: Response): boolean {
  if (req.get('x-api-key') !== undefined) return false;
  // The gateway's answer, not the app's: no x-api-version on it (evidence §11 N3, N5).
  res.removeHeader('X-Api-Version');
  res.set('x-amzn-errortype', 'ForbiddenException');
  res.status(403).json({ message: 'Forbidden' });
  return true;
}

/**
 * spec 5.4 / 5.7: every call but POST /auth needs x-api-key AND a valid bearer token of the same
 * account; 401 otherwise. RFI routes answer 401 with code invalid_request (spec 7.2), others unauthorized.
 * No x-api-key at all is the gateway's 403 (rejectMissingApiKey).
 */
export function requireAuth(ctx: SandboxContext, options: { rfi?: boolean } = {}): RequestHandler {
  const code = options.rfi ? 'invalid_request' : 'unauthorized';
  return (req, res, next) => {
    if (rejectMissingApiKey(req, res)) return;
    const account = ctx.store.accountByApiKey(req.get('x-api-key'));
    if (!account) return sendError(res, 401, code, 'Missing or invalid API key');
    const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    if (!match) return sendError(res, 401, code, 'Missing bearer token');
    if (ctx.store.tokenAccount(match[1]) !== account.clientUuid) {
      return sendError(res, 401, code, 'Invalid or expired bearer token');
    }
    requestState(res).account = account;
    next();
  };
}

/**
 * Version resolution (spec 9.2, provider-facts): X-Api-Version header, else the pin of the account
 * the x-api-key names, else the baseline. `minimum`: the route does not exist below that version
 * (RFI routes exist only under 2026-06-01) and answers like an unmatched route. `required`: the
 * header must be sent (liquidation-address, spec 4.6).
 */
export function withVersion(
  ctx: SandboxContext,
  options: { minimum?: string; required?: boolean } = {},
): RequestHandler {
  return (req, res, next) => {
    const header = req.get('x-api-version');
    if ((header !== undefined && !isVersionString(header)) || (options.required && !header))
      setVersionHeader(ctx, req, res);
    if (header !== undefined && !isVersionString(header)) {
      return res.status(400).json({
        code: 'validation_error',
        message: 'X-Api-Version must be a date string YYYY-MM-DD',
        errors: [{ field: 'X-Api-Version', message: 'must be a date string YYYY-MM-DD' }],
      });
    }
    if (options.required && !header) {
      return res.status(400).json({
        code: 'validation_error',
        message: 'X-Api-Version header is required on this call',
        errors: [{ field: 'X-Api-Version', message: 'is required' }],
      });
    }
    const pinned = ctx.store.accountByApiKey(req.get('x-api-key'))?.pinnedVersion;
    const version = resolveVersion(header, pinned);
    if (options.minimum && !versionAtLeast(version, options.minimum)) return sendRouteNotMatched(res);
    requestState(res).version = version;
    setVersionHeader(ctx, req, res);
    next();
  };
}

/**
 * evidence §11 N5: every answer of the API carries x-api-version, also its refusals of a body it
 * cannot read. The header sent is echoed even when unknown (accepted silently, [T3r DRIFT-11]; the
 * behaviour is the resolved, known version's); without one, the version in force (the pin).
 */
export function setVersionHeader(ctx: SandboxContext, req: Request, res: Response): void {
  const header = req.get('x-api-version');
  const pinned = ctx.store.accountByApiKey(req.get('x-api-key'))?.pinnedVersion;
  res.set('X-Api-Version', isVersionString(header) ? header : resolveVersion(undefined, pinned));
}
