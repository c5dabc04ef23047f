import type { DeliveryRecord } from '../control/control.types';
import { eventIdOf, type PartnerEventBody } from './event-builders.util';
import type { SandboxLogger } from '../server/sandbox.types';
import type { StateStore } from '../server/state.store';
import type { Telemetry } from '../server/telemetry.store';
import { postDelivery } from './webhook-post.util';

/**
 * evidence §9 [T1 REVISION-DOCS §2.4]: for about a minute after a secret rotation the partner still
 * signs deliveries with the old secret. The sandbox's default window (`webhookSecretOverlapMs`).
 */
export const PARTNER_SECRET_OVERLAP_MS = 60_000;

/** A window length as given to the sandbox option or to rotateWebhookSecret; throws naming `field`. */
export function checkSecretOverlapMs(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new Error(`${field} must be a number of milliseconds, 0 or more, got ${String(value)}`);
  return value;
}

interface Hold {
  remaining: number;
  records: DeliveryRecord[];
}

/**
 * Delivers events to the account's one URL (spec 6.1.1), one at a time in emit order, signed over
 * the exact bytes sent (6.1.3). Never retried (6.1.4): the receiver's answer is only recorded.
 */
export class WebhookSender {
  readonly deliveries: DeliveryRecord[] = [];
  private readonly queue: DeliveryRecord[] = [];
  private readonly holds = new Map<string, Hold>();
  private readonly previousSecretUses = new Map<string, number>();
  /** Per account: until when (epoch ms) the previous secret signs by default, after a rotation. */
  private readonly previousSecretUntil = new Map<string, number>();
  private readonly drops = new Map<string, { remaining: number; event?: string }>();
  private running: Promise<void> | undefined;
  private seq = 0;

  constructor(
    private readonly store: StateStore,
    private readonly telemetry: Telemetry,
    private readonly timeoutMs: number,
    private readonly logger: SandboxLogger,
  ) {}

  /** Queues one event for the account; answers its data.event_id. */
  emit(
    clientUuid: string,
    body: PartnerEventBody | Record<string, unknown>,
    options: { signWithPreviousSecret?: boolean } = {},
  ): string {
    const raw = JSON.stringify(body);
    const record = this.record(
      clientUuid,
      raw,
      String((body as { event?: unknown }).event),
      eventIdOf(body) ?? null,
    );
    // An explicit choice wins, then signNextWithPreviousSecret, then the window after a rotation
    // (evidence §9: the old secret keeps signing for about a minute). Decided when the event is
    // emitted, so a test that emits right after rotating sees the window whatever the queue does.
    const previous =
      options.signWithPreviousSecret ??
      (this.consumePreviousSecretUse(clientUuid) || this.previousSecretSigns(clientUuid));
    // Without a rotation there is no previous secret: the current one signs, and the record says so.
    record.signedWithPreviousSecret =
      previous && this.store.accounts.get(clientUuid)?.previousWebhookSecret !== undefined;
    const drop = this.drops.get(clientUuid);
    if (drop && (!drop.event || drop.event === record.event)) {
      record.outcome = 'dropped';
      if (--drop.remaining <= 0) this.drops.delete(clientUuid);
      return record.eventId ?? '';
    }
    const hold = this.holds.get(clientUuid);
    if (hold) {
      record.outcome = 'held';
      hold.records.push(record);
      if (--hold.remaining <= 0) {
        this.holds.delete(clientUuid);
        for (const held of hold.records.reverse()) this.enqueue(held);
      }
    } else this.enqueue(record);
    return record.eventId ?? '';
  }

  /** Sends again the exact bytes of an earlier delivery (by data.event_id, default the last). */
  duplicate(eventId?: string): void {
    const original = [...this.deliveries]
      .reverse()
      .find((d) => !d.duplicate && (!eventId || d.eventId === eventId));
    if (!original)
      throw new Error(eventId ? `no delivery with event_id ${eventId}` : 'no delivery to duplicate yet');
    const copy = this.record(original.clientUuid, original.body, original.event, original.eventId);
    copy.duplicate = true;
    copy.signedWithPreviousSecret = original.signedWithPreviousSecret;
    this.enqueue(copy);
  }

  reorderNext(clientUuid: string, count: number): void {
    if (count < 2) throw new Error('reorderNext needs a count of at least 2');
    this.holds.set(clientUuid, { remaining: count, records: [] });
  }

  dropNext(clientUuid: string, count: number, event?: string): void {
    if (!Number.isInteger(count) || count < 1)
      throw new Error('dropNextWebhooks needs a count of at least 1');
    this.drops.set(clientUuid, { remaining: count, event });
  }

  /**
   * After a rotation: deliveries emitted before `until` (epoch ms) are signed with the previous
   * secret unless a test asks otherwise (evidence §9 [T1 REVISION-DOCS §2.4]). `until` at or before
   * now: the new secret signs at once (opt-in, the partner has no such switch).
   */
  startPreviousSecretWindow(clientUuid: string, until: number): void {
    this.previousSecretUntil.set(clientUuid, until);
  }

  signNextWithPreviousSecret(clientUuid: string, count: number): void {
    if (!this.store.account(clientUuid).previousWebhookSecret)
      throw new Error('no previous secret: rotate the secret first');
    this.previousSecretUses.set(clientUuid, count);
  }

  /** Resolves with the finished deliveries (of `event`) once there are at least `count`. */
  async waitFor(count: number, event: string | undefined, timeoutMs: number): Promise<DeliveryRecord[]> {
    const deadline = Date.now() + timeoutMs;
    const done = () =>
      this.deliveries.filter(
        (d) => d.outcome !== 'queued' && d.outcome !== 'held' && (!event || d.event === event),
      );
    while (done().length < count) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${count} deliveries${event ? ` of ${event}` : ''} (got ${done().length})`,
        );
      await new Promise((r) => setTimeout(r, 10));
    }
    return done();
  }

  /** Resolves once nothing is queued or in flight. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  reset(): void {
    this.deliveries.length = 0;
    this.queue.length = 0;
    this.holds.clear();
    this.drops.clear();
    this.previousSecretUses.clear();
    // Like the signNextWithPreviousSecret counts: a reset isolates the next test from a rotation
    // made by the one before (the secrets themselves stay, as every credential does).
    this.previousSecretUntil.clear();
  }

  private record(clientUuid: string, body: string, event: string, eventId: string | null): DeliveryRecord {
    const record: DeliveryRecord = {
      seq: ++this.seq,
      clientUuid,
      event,
      eventId,
      url: null,
      body,
      signature: '',
      signedWithPreviousSecret: false,
      duplicate: false,
      outcome: 'queued',
      status: null,
      error: null,
      sentAt: null,
    };
    this.deliveries.push(record);
    return record;
  }

  private consumePreviousSecretUse(clientUuid: string): boolean {
    const left = this.previousSecretUses.get(clientUuid) ?? 0;
    if (left <= 0) return false;
    this.previousSecretUses.set(clientUuid, left - 1);
    return true;
  }

  private previousSecretSigns(clientUuid: string): boolean {
    const until = this.previousSecretUntil.get(clientUuid);
    if (until === undefined) return false;
    if (Date.now() < until) return true;
    this.previousSecretUntil.delete(clientUuid);
    return false;
  }

  private enqueue(record: DeliveryRecord): void {
    record.outcome = 'queued';
    this.queue.push(record);
    this.kick();
  }

  private kick(): void {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.queue.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    for (let record = this.queue.shift(); record; record = this.queue.shift()) await this.deliver(record);
  }

  private async deliver(record: DeliveryRecord): Promise<void> {
    const account = this.store.accounts.get(record.clientUuid);
    if (account) await postDelivery(record, account, this.timeoutMs, this.telemetry, this.logger);
  }
}
