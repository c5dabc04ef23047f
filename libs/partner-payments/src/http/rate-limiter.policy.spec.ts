import { FakeClock } from './local-server.fixture';
import { PartnerRateLimiter, TokenBucketRateLimiter } from './rate-limiter.policy';

describe('TokenBucketRateLimiter (provider-facts: 20/s, burst 50)', () => {
  it('lets a burst through, then spaces calls at the rate', () => {
    const clock = new FakeClock(0);
    const rl = new TokenBucketRateLimiter(20, 50, clock);
    const waits = Array.from({ length: 52 }, () => rl.reserve());
    expect(waits.slice(0, 50).every((w) => w === 0)).toBe(true);
    expect(waits[50]).toBe(50);
    expect(waits[51]).toBe(100);
  });
  it('refills over time, never above the burst', () => {
    const clock = new FakeClock(0);
    const rl = new TokenBucketRateLimiter(10, 5, clock);
    for (let i = 0; i < 5; i++) rl.reserve();
    expect(rl.reserve()).toBe(100);
    clock.t += 10_000;
    const waits = Array.from({ length: 6 }, () => rl.reserve());
    expect(waits.filter((w) => w === 0)).toHaveLength(5);
    expect(waits[5]).toBeGreaterThan(0);
  });
  it('acquire() sleeps for the computed wait', async () => {
    const clock = new FakeClock(0);
    const rl = new TokenBucketRateLimiter(1, 1, clock);
    await rl.acquire();
    await rl.acquire();
    expect(clock.t).toBe(1000);
  });
});

describe('PartnerRateLimiter (a pluggable budget)', () => {
  const limit = { requestsPerSecond: 20, burst: 50 };
  const quietLogger = () => {
    const warnings: string[] = [];
    return { warnings, logger: { log() {}, error() {}, warn: (m: string) => void warnings.push(m) } };
  };

  it('waits what the shared budget answers, and asks it with the configured limit', async () => {
    const clock = new FakeClock(0);
    const asked: unknown[] = [];
    const waits = [0, 0, 120];
    const limiter = new PartnerRateLimiter(
      limit,
      { reserve: async (l) => (asked.push(l), waits.shift()!) },
      clock,
    );
    await limiter.acquire();
    await limiter.acquire();
    expect(clock.t).toBe(0);
    await limiter.acquire();
    expect(clock.t).toBe(120);
    expect(asked).toEqual([limit, limit, limit]);
  });

  it('two limiters on one budget spend it once: the second waits where two own buckets would not', async () => {
    const clock = new FakeClock(0);
    const shared = new TokenBucketRateLimiter(1, 1, clock);
    const budget = { reserve: () => shared.reserve() };
    const a = new PartnerRateLimiter({ requestsPerSecond: 1, burst: 1 }, budget, clock);
    const b = new PartnerRateLimiter({ requestsPerSecond: 1, burst: 1 }, budget, clock);
    await a.acquire();
    await b.acquire();
    expect(clock.t).toBe(1000);
    const c = new PartnerRateLimiter({ requestsPerSecond: 1, burst: 1 }, null, clock);
    const d = new PartnerRateLimiter({ requestsPerSecond: 1, burst: 1 }, null, clock);
    await c.acquire();
    await d.acquire();
    expect(clock.t).toBe(1000); // each its own bucket: no wait at all
  });

  it('falls back to its own bucket when the budget fails or answers nonsense, warning once a minute', async () => {
    const clock = new FakeClock(0);
    const { warnings, logger } = quietLogger();
    let answer: () => Promise<number> = () => Promise.reject(new Error('database is down'));
    const limiter = new PartnerRateLimiter(
      { requestsPerSecond: 10, burst: 2 },
      { reserve: () => answer() },
      clock,
      logger,
    );
    await limiter.acquire();
    await limiter.acquire();
    expect(clock.t).toBe(0); // the local burst of 2
    await limiter.acquire();
    expect(clock.t).toBe(100); // then the local rate
    expect(warnings).toEqual([expect.stringContaining('database is down')]);
    answer = () => Promise.resolve(Number.NaN);
    clock.t += 60_000;
    await limiter.acquire();
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain('not a wait in ms');
  });
});
