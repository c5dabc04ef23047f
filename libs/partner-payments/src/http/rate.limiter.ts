/**
 * Client-side token bucket (provider-facts: 20 requests/s with bursts of 50, per account, across
 * all endpoints; 429 above). Callers reserve a token; when the bucket is empty the reservation
 * goes negative and the caller waits for its turn, so waiting callers are served in order.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

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
