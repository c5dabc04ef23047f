import type { Request, RequestHandler, Response } from 'express';
import { sendPlainJson, sendRouteNotMatched } from '../server/http-errors.util';
import { requestState, type SandboxContext } from '../server/sandbox-context.util';
import { isVersionString, resolveVersion, versionAtLeast } from '../server/versioning.util';
import { setAppHeaders } from './app-headers.middleware';

/**
 * evidence §1/§2 [T3r DRIFT-6, 49]: on any path, POST /auth included, a call with no x-api-key at
 * all (or a bearer only) is answered by the partner's gateway before the API sees it: 403
 * `{message:"Forbidden"}` with an `x-amzn-errortype` header (the contract states no body for it).
 * Answers that and returns true when the header is missing; returns false (nothing sent) otherwise.
 * A present but wrong key is the API's 401 (spec 5.7), not this.
 */
export function rejectMissingApiKey(req: Request, res: Response): boolean {
  if (req.get('x-api-key') !== undefined) return false;
  sendPlainJson(res, 403, { message: 'Forbidden' }, 'ForbiddenException');
  return true;
}

/**
 * spec 5.4 / 5.7: every call but POST /auth needs x-api-key AND a valid bearer token of the same
 * account; 401 otherwise. RFI routes answer 401 with code invalid_request (spec 7.2), others unauthorized.
 * No x-api-key at all is the gateway's 403 (rejectMissingApiKey). These refusals are the gateway's
 * (its authorizer, evidence §11 N8): none of the app's headers (N4), the contract's 401 body.
 */
export function requireAuth(ctx: SandboxContext, options: { rfi?: boolean } = {}): RequestHandler {
  const code = options.rfi ? 'invalid_request' : 'unauthorized';
  return (req, res, next) => {
    const refuse = (message: string) =>
      sendPlainJson(res, 401, { code, message, statusCode: 401 }, 'UnauthorizedException');
    if (rejectMissingApiKey(req, res)) return;
    const account = ctx.store.accountByApiKey(req.get('x-api-key'));
    if (!account) return refuse('Missing or invalid API key');
    const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    if (!match) return refuse('Missing bearer token');
    const verdict = ctx.accessTokens.verify(match[1]);
    // evidence §11 N8 [T3raw security/jwt-attack-suite/02]: a token whose claims or signature were
    // changed is the gateway's 403 AccessDeniedException `{"Message":"Access Denied"}`.
    if ('refused' in verdict && verdict.refused === 'signature')
      return sendPlainJson(res, 403, { Message: 'Access Denied' }, 'AccessDeniedException');
    // Not a JWT of this key (garbage, alg none, HS256), unknown, expired or another account's:
    // 401 with the contract's body (spec 5.7; the partner's gateway sends `{message}`, evidence §1).
    if ('refused' in verdict || ctx.store.tokenAccount(verdict.claims.jti) !== account.clientUuid)
      return refuse('Invalid or expired bearer token');
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
      setAppHeaders(ctx, req, res);
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
    setAppHeaders(ctx, req, res);
    next();
  };
}
