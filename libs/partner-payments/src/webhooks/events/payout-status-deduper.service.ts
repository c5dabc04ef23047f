import { MapCap } from '../map-cap.util';

/**
 * Suppresses the second unified payout status of one transition (spec 6.4.7: a single transition
 * can produce both a granular payout.* event and payout.status_changed, and both are authoritative).
 *
 * Key: payoutId + canonical status. A key seen within `windowMs` is a duplicate. Bounded: at most
 * `maxKeys` keys, least recently seen evicted first. Trade-off (docs/nestjs/events.md): a payout
 * that genuinely returns to the same status within the window (e.g. PROCESSING -> IN_REVIEW ->
 * PROCESSING) is not re-announced; the reconciliation path always publishes, and corrects it.
 */
export interface PartnerPayoutStatusDeduperOptions {
  /** How long a (payoutId, status) pair suppresses its twin. Default 10 minutes. */
  windowMs?: number;
  /** Most keys kept. Default 10_000. */
  maxKeys?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export class PartnerPayoutStatusDeduper {
  private readonly seen = new Map<string, number>();
  private readonly windowMs: number;
  private readonly cap: MapCap<string>;
  private readonly now: () => number;

  constructor(options: PartnerPayoutStatusDeduperOptions = {}) {
    this.windowMs = options.windowMs ?? 10 * 60_000;
    this.cap = new MapCap(this.seen, Math.max(1, options.maxKeys ?? 10_000));
    this.now = options.now ?? Date.now;
  }

  static key(payoutId: string, status: string): string {
    return `${payoutId}\u0000${status.toUpperCase()}`;
  }

  /**
   * Claims the pair: true when it was not seen within the window (the caller announces it and the
   * pair is recorded now, synchronously, so two concurrent deliveries cannot both win), false when
   * it is a duplicate. Call forget() if the announcement then fails, so a retry can claim it again.
   */
  claim(payoutId: string, status: string): boolean {
    const key = PartnerPayoutStatusDeduper.key(payoutId, status);
    const at = this.seen.get(key);
    if (at !== undefined && this.now() - at <= this.windowMs) return false;
    this.remember(payoutId, status);
    return true;
  }

  /** Records the pair as announced now, without asking (reconciliation publishes unconditionally). */
  remember(payoutId: string, status: string): void {
    const key = PartnerPayoutStatusDeduper.key(payoutId, status);
    this.seen.delete(key); // re-insert: Map order is the LRU order
    this.seen.set(key, this.now());
    this.cap.trim();
  }

  /** Forgets a pair (its handlers failed after it was claimed). */
  forget(payoutId: string, status: string): void {
    this.seen.delete(PartnerPayoutStatusDeduper.key(payoutId, status));
  }

  get size(): number {
    return this.seen.size;
  }
}
