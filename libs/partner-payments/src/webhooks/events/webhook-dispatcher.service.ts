import { Injectable, Optional } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { traceHandler } from '../../observability/webhook-instrumentation.util';
import { PartnerDerivedEvent } from './partner-event.constants';
import type { PartnerPayoutStatusEvent, PartnerWebhookEvent } from './partner-event.types';
import { PartnerPayoutStatusDeduper } from './payout-status-deduper.service';
import { toPartnerPayoutStatusEvent } from './payout-status.util';
import { PartnerWebhookConfigurationError } from '../webhook.errors';

export interface PartnerDispatchResult {
  /** Event names emitted, in order. */
  emitted: string[];
  /** The unified payout status this delivery stands for, if any. */
  payoutStatus: PartnerPayoutStatusEvent | null;
  /** true when it was not emitted because its twin already was (spec 6.4.7). */
  payoutStatusSuppressed: boolean;
}

/**
 * Emits a parsed delivery to the host app's handlers (emitToAllListeners), so a handler that throws
 * (with suppressErrors: false, which `@OnPartnerEvent` sets) rejects the dispatch and the inbox entry
 * is marked failed instead of processed.
 */
@Injectable()
export class PartnerWebhookDispatcher {
  readonly payoutStatusDeduper: PartnerPayoutStatusDeduper;

  constructor(@Optional() private readonly emitter?: EventEmitter2) {
    this.payoutStatusDeduper = new PartnerPayoutStatusDeduper();
  }

  async dispatch(event: PartnerWebhookEvent<string, unknown>): Promise<PartnerDispatchResult> {
    const emitter = this.requireEmitter();
    // spec 6.1.5: unknown types are acknowledged, recorded and surfaced on one derived name, so a
    // future partner event can never collide with a handler the app has not written yet.
    const name = event.known ? event.name : PartnerDerivedEvent.Unknown;
    await emitToAllListeners(emitter, name, event);
    const emitted = [name];

    const payoutStatus = event.known ? toPartnerPayoutStatusEvent(event) : null;
    let payoutStatusSuppressed = false;
    if (payoutStatus) {
      if (this.payoutStatusDeduper.claim(payoutStatus.payoutId, payoutStatus.status)) {
        try {
          await emitToAllListeners(emitter, PartnerDerivedEvent.PayoutStatus, payoutStatus);
        } catch (error) {
          // Not announced after all: let the retry of this entry (or its twin) claim it again.
          this.payoutStatusDeduper.forget(payoutStatus.payoutId, payoutStatus.status);
          throw error;
        }
        emitted.push(PartnerDerivedEvent.PayoutStatus);
      } else {
        payoutStatusSuppressed = true;
      }
    }
    return { emitted, payoutStatus, payoutStatusSuppressed };
  }

  /** Forgets the unified status a dispatch announced, so a retry of that entry announces it again. */
  release(result: PartnerDispatchResult): void {
    if (result.payoutStatus && !result.payoutStatusSuppressed) {
      this.payoutStatusDeduper.forget(result.payoutStatus.payoutId, result.payoutStatus.status);
    }
  }

  /**
   * Publishes a unified payout status from outside the webhook path (the reference app's
   * reconciliation, source 'reconciliation'). Always emitted; the pair is remembered so a late
   * webhook for the same (payoutId, status) is then suppressed.
   */
  async publishPayoutStatus(event: PartnerPayoutStatusEvent): Promise<void> {
    await emitPartnerPayoutStatus(this.requireEmitter(), event);
    this.payoutStatusDeduper.remember(event.payoutId, event.status);
  }

  get hasEmitter(): boolean {
    return this.emitter !== undefined && this.emitter !== null;
  }

  private requireEmitter(): EventEmitter2 {
    if (!this.emitter) {
      throw new PartnerWebhookConfigurationError(
        'Partner webhook: no EventEmitter2 available. Import EventEmitterModule.forRoot() from ' +
          '@nestjs/event-emitter in your AppModule.',
      );
    }
    return this.emitter;
  }
}

/**
 * Emits the unified payout status (PartnerDerivedEvent.PayoutStatus) on any EventEmitter2, with the
 * status upper-cased. Handler errors propagate, once every handler has finished.
 */
export async function emitPartnerPayoutStatus(
  emitter: EventEmitter2,
  event: PartnerPayoutStatusEvent,
): Promise<void> {
  await emitToAllListeners(emitter, PartnerDerivedEvent.PayoutStatus, {
    ...event,
    status: event.status.toUpperCase(),
  });
}

/**
 * Calls every listener of `name` (and every onAny listener) and waits until ALL have settled
 * before rejecting with the first failure. EventEmitter2.emitAsync rejects as soon as one handler
 * fails while the others are still running: with a unit of work around the dispatch (the inbox
 * store's runProcessing), their writes would then land after the rollback, outside it.
 */
export async function emitToAllListeners(
  emitter: EventEmitter2,
  name: string,
  payload: unknown,
): Promise<void> {
  const calls = [
    ...emitter.listeners(name).map((listener) => () => listener.call(emitter, payload)),
    ...emitter.listenersAny().map((listener) => () => listener.call(emitter, name, payload)),
  ];
  // Issue 13: each listener in span `partner.webhook handler`, so the host's writes nest under it.
  const results = await Promise.allSettled(
    calls.map((call, index) => traceHandler(name, index, async () => call())),
  );
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}
