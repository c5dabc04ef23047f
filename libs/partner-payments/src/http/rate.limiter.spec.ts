import { FakeClock } from './local-server.fixture';
import { TokenBucketRateLimiter } from './rate.limiter';

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
