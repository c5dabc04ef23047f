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

export class IdempotencyStore {
  private readonly answers = new Map<string, StoredAnswer>();
  /** Keys whose request failed (4xx/5xx), with that request's body fingerprint. */
  private readonly failed = new Map<string, string | undefined>();
  private readonly inFlight = new Set<string>();

  private static key(account: string, route: string, key: string): string {
    return `${account}\u0000${route}\u0000${key}`;
  }

  get(account: string, route: string, key: string): StoredAnswer | undefined {
    return this.answers.get(IdempotencyStore.key(account, route, key));
  }

  /** Whether the key was last used by a request that failed, and that request's body fingerprint. */
  failure(account: string, route: string, key: string): { requestSha256?: string } | undefined {
    const k = IdempotencyStore.key(account, route, key);
    return this.failed.has(k) ? { requestSha256: this.failed.get(k) } : undefined;
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
      this.answers.set(k, answer);
      this.failed.delete(k);
    } else if (answer) this.failed.set(k, answer.requestSha256);
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
