import type { RequestHandler } from 'express';
import type { SandboxContext } from '../server/sandbox-context.util';

interface Bucket {
  tokens: number;
  at: number;
}

/** The partner's limit (evidence §1 [T1 REVISION-DOCS §3.3]): 20 requests/s, bursts of 50, per account. */
export const PARTNER_RATE_LIMIT = { perSecond: 20, burst: 50 } as const;

/**
 * Token bucket per account across all endpoints, 429 with Retry-After above it. On by default, as
 * at the partner; `rateLimit: false` turns it off (a convenience the partner lacks).
 */
export function rateLimitMiddleware(ctx: SandboxContext): RequestHandler {
  const buckets = new Map<string, Bucket>();
  return (req, res, next) => {
    const limit = ctx.options.rateLimit;
    const apiKey = req.get('x-api-key');
    if (!limit || !apiKey) return next();
    const now = Date.now();
    const bucket = buckets.get(apiKey) ?? { tokens: limit.burst, at: now };
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
    bucket.at = now;
    buckets.set(apiKey, bucket);
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond));
      res.set('Retry-After', String(retryAfter));
      res.status(429).json({ code: 'rate_limited', message: 'Rate limit exceeded' });
      return;
    }
    bucket.tokens -= 1;
    next();
  };
}
