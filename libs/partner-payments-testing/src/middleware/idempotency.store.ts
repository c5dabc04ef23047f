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
  private readonly inFlight = new Set<string>();

  private static key(account: string, route: string, key: string): string {
    return `${account}\u0000${route}\u0000${key}`;
  }

  get(account: string, route: string, key: string): StoredAnswer | undefined {
    return this.answers.get(IdempotencyStore.key(account, route, key));
  }

  /** Marks a key as being processed; false when another request with the same key is running. */
  begin(account: string, route: string, key: string): boolean {
    const k = IdempotencyStore.key(account, route, key);
    if (this.inFlight.has(k)) return false;
    this.inFlight.add(k);
    return true;
  }

  /** Records the answer of a finished request. Only successful (2xx) answers are stored. */
  finish(account: string, route: string, key: string, answer?: StoredAnswer): void {
    const k = IdempotencyStore.key(account, route, key);
    this.inFlight.delete(k);
    if (answer && answer.status >= 200 && answer.status < 300) this.answers.set(k, answer);
  }

  get size(): number {
    return this.answers.size;
  }

  clear(): void {
    this.answers.clear();
    this.inFlight.clear();
  }
}
