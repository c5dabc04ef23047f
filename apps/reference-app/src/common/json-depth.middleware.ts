import { Logger } from '@nestjs/common';
import { isUploadRoute } from './upload-routes.util';
import type { NextFunction, Request, Response } from 'express';

/** Deeper than any body this app accepts (a payout is 1 level); far below what recursion can take. */
export const MAX_JSON_DEPTH = 32;

/** Depth of a parsed JSON value, iteratively (a recursive walk is what a deep body attacks). */
export function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return max;
}

const logger = new Logger('RequestBody');

/**
 * Whether Express routes `url` to the webhook controller (POST /webhooks/partner). Its router is
 * case-insensitive, so `/WEBHOOKS/partner` reaches the same handler: the exclusions that keep the
 * webhook's bytes for its guard (spec 6.1.3: the signature is verified against the raw bytes,
 * before parsing) must match the same way, or a case variant of the path gets its unsigned body parsed first.
 */
export function isWebhookPath(url: string): boolean {
  return /^\/webhooks\//i.test(url);
}

/**
 * A small body nested thousands deep would reach class-transformer and answer 500 with a stack
 * per request. The depth is checked on the parsed body before any transformation: 400 naming
 * the problem, one warning line, no stack. The webhook route is not affected (its bytes are verified
 * and parsed by the module).
 */
export function jsonDepthLimit(req: Request, res: Response, next: NextFunction): void {
  if (isWebhookPath(req.path) || typeof req.body !== 'object' || req.body === null) return next();
  const depth = jsonDepth(req.body, MAX_JSON_DEPTH);
  if (depth <= MAX_JSON_DEPTH) return next();
  logger.warn(`${req.method} ${req.path}: body nested deeper than ${MAX_JSON_DEPTH} levels refused`);
  res.status(400).json({
    statusCode: 400,
    error: 'Bad Request',
    message: [`request body is nested deeper than ${MAX_JSON_DEPTH} levels`],
  });
}

/**
 * The app's own writes take JSON only. Nest also parses form bodies, whose
 * fields arrive as strings and could pass validation; refused 415 before any pipe runs. The
 * console's HTML forms (console/) are the exception: it reads their fields itself.
 */
export function jsonOnlyWrites(req: Request, res: Response, next: NextFunction): void {
  if (
    req.method !== 'POST' ||
    isWebhookPath(req.path) ||
    isUploadRoute(req) ||
    /^\/console\//i.test(req.path) ||
    req.headers['content-length'] === '0'
  )
    return next();
  if (req.headers['content-type'] === undefined || /^application\/json\b/i.test(req.headers['content-type']))
    return next();
  res.status(415).json({
    statusCode: 415,
    error: 'Unsupported Media Type',
    message: `${req.method} ${req.path} takes application/json`,
  });
}
