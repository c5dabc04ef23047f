import type { RequestHandler } from 'express';
import { sendRouteNotMatched } from '../server/http-errors.util';

/**
 * A call the partner serves only on its sandbox base `{base_url}/sandbox` (spec 1). On the production
 * base (the root here) it does not exist: 403 like any unmatched route (spec 7.5), before auth, so
 * an app that reaches it in production mode fails here as it would at the partner (evidence §5
 * [T1 KiraApiClient, REVISION-DOCS §5]: simulate-deposit, production answers 403).
 */
export const isSandboxOnlyPath = (path: string): boolean => /\/simulate-deposit\/?$/.test(path);

export const sandboxOnly: RequestHandler = (req, res, next) =>
  req.baseUrl === '/sandbox' ? next() : sendRouteNotMatched(res);
