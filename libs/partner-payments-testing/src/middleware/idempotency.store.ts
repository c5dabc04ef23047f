/**
 * Idempotency answers (provider-facts: replaying an Idempotency-Key returns the original result
 * instead of creating a second resource). Scoped by account and by route (method + path), so the
 * same key on another route is a different request.
 */
export interface StoredAnswer {
  status: number;
  body: unknown;
  /** sha256 of the request body that produced the answer, to notice a key reused for another body. */
  requestSha256?: string;
}

/**
 * How long the partner keeps a key: 24 h, as its older readme docs say (evidence §11 N40 [T3ref
 * §2.3], docs only; the contract names no life). After it, the same key is a new request.
 */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** A key life as given to the sandbox option; throws naming the option. */
export function checkIdempotencyKeyTtlMs(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new Error(`idempotencyKeyTtlMs must be a number of milliseconds above 0, got ${String(value)}`);
  return value;
}

export class IdempotencyStore {
  private readonly answers = new Map<string, StoredAnswer & { at: number }>();
  /** Keys whose request failed (4xx/5xx), with that request's body fingerprint. */
  private readonly failed = new Map<string, { requestSha256?: string; at: number }>();
  private readonly inFlight = new Set<string>();

  constructor(private readonly ttlMs = IDEMPOTENCY_KEY_TTL_MS) {}

  /** The entry under `k` unless its key outlived the TTL (then it is forgotten). */
  private live<T extends { at: number }>(map: Map<string, T>, k: string): T | undefined {
    const entry = map.get(k);
    if (entry && Date.now() - entry.at >= this.ttlMs) {
      map.delete(k);
      return undefined;
    }
    return entry;
  }

  private static key(account: string, route: string, key: string): string {
    return `${account}\u0000${route}\u0000${key}`;
  }

  get(account: string, route: string, key: string): StoredAnswer | undefined {
    const entry = this.live(this.answers, IdempotencyStore.key(account, route, key));
    return entry && { status: entry.status, body: entry.body, requestSha256: entry.requestSha256 };
  }

  /** Whether the key was last used by a request that failed, and that request's body fingerprint. */
  failure(account: string, route: string, key: string): { requestSha256?: string } | undefined {
    const entry = this.live(this.failed, IdempotencyStore.key(account, route, key));
    return entry && { requestSha256: entry.requestSha256 };
  }

  /** Marks a key as being processed; false when another request with the same key is running. */
  begin(account: string, route: string, key: string): boolean {
    const k = IdempotencyStore.key(account, route, key);
    if (this.inFlight.has(k)) return false;
    this.inFlight.add(k);
    return true;
  }

  /**
   * Records the answer of a finished request: a successful (2xx) one is replayed later, a failed
   * one only marks the key as used by a failure.
   */
  finish(account: string, route: string, key: string, answer?: StoredAnswer): void {
    const k = IdempotencyStore.key(account, route, key);
    this.inFlight.delete(k);
    if (answer && answer.status >= 200 && answer.status < 300) {
      this.answers.set(k, { ...answer, at: Date.now() });
      this.failed.delete(k);
    } else if (answer) this.failed.set(k, { requestSha256: answer.requestSha256, at: Date.now() });
  }

  get size(): number {
    return this.answers.size;
  }

  clear(): void {
    this.answers.clear();
    this.failed.clear();
    this.inFlight.clear();
  }
}
