import type { RequestHandler, Router } from 'express';
import { sendPlainJson, sendRouteNotMatched } from '../server/http-errors.util';
import { rejectMissingApiKey } from './auth.middleware';
import { isSandboxOnlyPath } from './sandbox-only.middleware';

/** The parts of Express's router layers read here (router 2.x: `stack`, `match`, `route.methods`). */
interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/** Whether `router` has a route for `path`, with `method` when given (any method otherwise). */
export function hasRoute(router: Router, path: string, method?: string): boolean {
  const wanted = method?.toLowerCase();
  return (router.stack as unknown as RouteLayer[]).some(
    (layer) =>
      layer.route !== undefined &&
      layer.match(path) &&
      (wanted === undefined ||
        layer.route.methods[wanted] === true ||
        (wanted === 'head' && layer.route.methods.get === true)),
  );
}

/** A path relative to the stage's base: `/sandbox/v1/users` and `/v1/users` are both `/v1/users`. */
const stagePath = (path: string): string => path.replace(/^\/sandbox(?=\/|$)/, '') || '/';

/**
 * evidence §11 N7 [T3raw security-headers-and-tls/02]: the gateway answers a CORS preflight on a
 * route itself, before any credential: 200, empty body, these headers (Idempotency-Key and
 * X-Api-Version are not in the allowed list). An OPTIONS on an unknown path falls through to the
 * unmatched-route 403 (spec 7.5).
 */
export function corsPreflight(router: Router): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'OPTIONS' || !hasRoute(router, stagePath(req.path))) return next();
    // setHeader, not res.set: Express would add a charset to the content-type, which the gateway's
    // own answers do not carry (evidence §11 N4).
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-methods', 'DELETE,GET,HEAD,OPTIONS,PATCH,POST,PUT');
    res.setHeader(
      'access-control-allow-headers',
      'Content-Type,Authorization,X-Amz-Date,X-Api-Key,X-Amz-Security-Token',
    );
    res.setHeader('content-type', 'application/json');
    res.setHeader('content-length', '0');
    res.status(200).end();
  };
}

/**
 * The other stage's base (evidence §11 N1, C2 [T3raw versioning/02-04]): api keys and tokens belong
 * to one stage, and the sandbox has only sandbox credentials, so every call that reaches a route
 * here is the gateway's refusal: no x-api-key → 403 Forbidden (as everywhere); POST /auth with a
 * key → 403 `ForbiddenException` `{message:"Forbidden"}`; any other route → 401
 * `UnauthorizedException` `{message:"Unauthorized"}` (N3: 26 bytes, no charset). A route that
 * does not exist there (unknown, or sandbox-only such as simulate-deposit, N2) is the unmatched
 * route's 403 (spec 7.5).
 */
export function foreignStage(router: Router): RequestHandler {
  return (req, res) => {
    if (!hasRoute(router, req.path, req.method) || isSandboxOnlyPath(req.path))
      return sendRouteNotMatched(res);
    if (rejectMissingApiKey(req, res)) return;
    const forbidden = req.path === '/auth';
    sendPlainJson(
      res,
      forbidden ? 403 : 401,
      { message: forbidden ? 'Forbidden' : 'Unauthorized' },
      forbidden ? 'ForbiddenException' : 'UnauthorizedException',
    );
  };
}
