import { computeBackoffMs, parseRetryAfter, shouldRetry, type RetryDecisionInput } from './retry.policy';

const base = (over: Partial<RetryDecisionInput>): RetryDecisionInput => ({
  attempt: 1,
  maxRetries: 2,
  method: 'GET',
  hasIdempotencyKey: false,
  outcome: { kind: 'response', status: 503 },
  ...over,
});

describe('shouldRetry', () => {
  it.each(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNREFUSED'])('retries %s on a GET', (code) => {
    expect(shouldRetry(base({ outcome: { kind: 'network', code } })).retry).toBe(true);
  });

  it('a NaN maxRetries means no retry, never retry forever', () => {
    expect(shouldRetry(base({ maxRetries: Number.NaN })).retry).toBe(false);
    expect(shouldRetry(base({ attempt: 50, maxRetries: Number.NaN })).retry).toBe(false);
  });

  it('does not retry unknown network errors (DNS)', () => {
    expect(shouldRetry(base({ outcome: { kind: 'network', code: 'ENOTFOUND' } })).retry).toBe(false);
    expect(shouldRetry(base({ outcome: { kind: 'network', code: undefined } })).retry).toBe(false);
  });

  it.each([500, 502, 503, 504])('retries %i on a GET', (status) => {
    expect(shouldRetry(base({ outcome: { kind: 'response', status } })).retry).toBe(true);
  });

  it.each([400, 401, 403, 404, 409, 422])('never retries %i', (status) => {
    expect(shouldRetry(base({ outcome: { kind: 'response', status } })).retry).toBe(false);
    expect(
      shouldRetry(base({ method: 'POST', hasIdempotencyKey: true, outcome: { kind: 'response', status } }))
        .retry,
    ).toBe(false);
  });

  it('retries 429 even on a write without key (refused before processing) and passes Retry-After on', () => {
    const d = shouldRetry(
      base({ method: 'PATCH', outcome: { kind: 'response', status: 429, retryAfterMs: 1500 } }),
    );
    expect(d).toEqual(expect.objectContaining({ retry: true, retryAfterMs: 1500 }));
  });

  it('never retries a write without Idempotency-Key after it may have reached the server', () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) {
      expect(shouldRetry(base({ method, outcome: { kind: 'response', status: 500 } })).retry).toBe(false);
      expect(shouldRetry(base({ method, outcome: { kind: 'network', code: 'ECONNRESET' } })).retry).toBe(
        false,
      );
      expect(shouldRetry(base({ method, outcome: { kind: 'network', code: 'ETIMEDOUT' } })).retry).toBe(
        false,
      );
      expect(shouldRetry(base({ method, outcome: { kind: 'network', code: 'EPIPE' } })).retry).toBe(false);
    }
  });

  it('retries a write without key when the connection was refused (nothing was sent)', () => {
    expect(
      shouldRetry(base({ method: 'POST', outcome: { kind: 'network', code: 'ECONNREFUSED' } })).retry,
    ).toBe(true);
  });

  it('retries a keyed write on 5xx and resets', () => {
    expect(
      shouldRetry(
        base({ method: 'POST', hasIdempotencyKey: true, outcome: { kind: 'response', status: 502 } }),
      ).retry,
    ).toBe(true);
    expect(
      shouldRetry(
        base({ method: 'POST', hasIdempotencyKey: true, outcome: { kind: 'network', code: 'ECONNRESET' } }),
      ).retry,
    ).toBe(true);
  });

  it('stops when retries are exhausted', () => {
    expect(shouldRetry(base({ attempt: 2, maxRetries: 2 })).retry).toBe(true);
    expect(shouldRetry(base({ attempt: 3, maxRetries: 2 }))).toEqual({
      retry: false,
      reason: 'retries exhausted',
    });
    expect(shouldRetry(base({ attempt: 1, maxRetries: 0 })).retry).toBe(false);
  });
});

describe('computeBackoffMs', () => {
  const opts = { initialDelayMs: 100, maxDelayMs: 1000, minDelayMs: 20, maxRetryAfterMs: 5000 };

  it('grows exponentially with jitter between half and the full step', () => {
    expect(computeBackoffMs(1, opts, null, () => 0)).toBe(50);
    expect(computeBackoffMs(1, opts, null, () => 1)).toBe(100);
    expect(computeBackoffMs(2, opts, null, () => 0)).toBe(100);
    expect(computeBackoffMs(3, opts, null, () => 1)).toBe(400);
  });

  it('caps at maxDelayMs', () => {
    expect(computeBackoffMs(10, opts, null, () => 1)).toBe(1000);
    expect(computeBackoffMs(50, opts, null, () => 0.5)).toBeLessThanOrEqual(1000);
  });

  it('never goes under the floor', () => {
    expect(computeBackoffMs(1, { ...opts, initialDelayMs: 2 }, null, () => 0)).toBe(20);
  });

  it('jitters: different random values give different delays', () => {
    expect(computeBackoffMs(3, opts, null, () => 0.1)).not.toBe(computeBackoffMs(3, opts, null, () => 0.9));
  });

  it('honours a longer Retry-After, capped at maxRetryAfterMs', () => {
    expect(computeBackoffMs(1, opts, 3000, () => 0)).toBe(3000);
    expect(computeBackoffMs(1, opts, 60_000, () => 0)).toBe(5000);
    // a shorter Retry-After does not shorten the backoff
    expect(computeBackoffMs(3, opts, 1, () => 1)).toBe(400);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(' 0.5 ')).toBe(500);
  });
  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
  });
  it('returns null for absent or unreadable values', () => {
    expect(parseRetryAfter(undefined)).toBeNull();
    expect(parseRetryAfter('')).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
