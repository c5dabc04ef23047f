import type { LoggerService } from '@nestjs/common';

/**
 * Client-side token bucket (evidence §1 [T1 REVISION-DOCS §3.3]: 20 requests/s with bursts of 50,
 * per account, across all endpoints; 429 above). Callers reserve a token; when the bucket is empty
 * the reservation goes negative and the caller waits for its turn, so waiting callers are served
 * in order.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A bucket's rate and size. */
export interface PartnerRateLimit {
  requestsPerSecond: number;
  burst: number;
}

/**
 * Where the limiter's tokens live. The default is this process's memory. The partner counts per
 * account, not per process (evidence §1), so replicas of one app that each keep their own bucket
 * spend the account's budget once per replica; a store they all share (the reference app keeps it
 * in its database) makes them spend one budget.
 */
export interface PartnerRateBudget {
  /**
   * Takes one token from the bucket `limit` describes and answers how long, in ms, the caller must
   * wait before sending: 0 when a token was free. The token is spent even though the caller then
   * waits (a reservation), so callers queue in order. Must be atomic across everything sharing
   * the budget. A rejection makes the limiter fall back to an in-process bucket for that call.
   */
  reserve(limit: PartnerRateLimit): number | Promise<number>;
}

export class TokenBucketRateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly requestsPerSecond: number,
    private readonly burst: number,
    private readonly clock: Clock = systemClock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  /** How long a caller arriving now would wait, in ms (0 when a token is free). */
  reserve(): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.requestsPerSecond);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.requestsPerSecond) * 1000);
  }

  async acquire(): Promise<void> {
    const wait = this.reserve();
    if (wait > 0) await this.clock.sleep(wait);
  }
}

/** How often a failing shared budget is reported (it may fail on every call). */
const WARN_EVERY_MS = 60_000;

/**
 * What the transport waits on before every attempt: the budget given (`rateLimit.budget`), or this
 * process's own token bucket. When the shared budget fails (its store is down), the call is not
 * failed with it: it is paced by the in-process bucket instead and a warning is logged (at most
 * once a minute). Replicas that fall back together may then exceed the account's limit; the partner
 * answers 429 and the retry policy honours its Retry-After.
 */
export class PartnerRateLimiter {
  private readonly local: TokenBucketRateLimiter;
  private lastWarning = -Infinity;

  constructor(
    private readonly limit: PartnerRateLimit,
    private readonly budget: PartnerRateBudget | null = null,
    private readonly clock: Clock = systemClock,
    private readonly logger?: LoggerService,
  ) {
    this.local = new TokenBucketRateLimiter(limit.requestsPerSecond, limit.burst, clock);
  }

  async acquire(): Promise<void> {
    const wait = await this.reserve();
    if (wait > 0) await this.clock.sleep(wait);
  }

  private async reserve(): Promise<number> {
    if (!this.budget) return this.local.reserve();
    try {
      const wait = await this.budget.reserve(this.limit);
      if (typeof wait !== 'number' || !Number.isFinite(wait) || wait < 0)
        throw new TypeError(`reserve() answered ${String(wait)}, not a wait in ms`);
      return wait;
    } catch (error) {
      const now = this.clock.now();
      if (now - this.lastWarning >= WARN_EVERY_MS) {
        this.lastWarning = now;
        this.logger?.warn(
          `Partner rate budget unavailable, pacing this process alone: ${(error as Error).message ?? String(error)}`,
        );
      }
      return this.local.reserve();
    }
  }
}
