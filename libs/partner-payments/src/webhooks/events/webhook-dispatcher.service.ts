import { Injectable, Optional } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { traceHandler } from '../../observability/webhook-instrumentation.util';
import { PartnerDerivedEvent } from './partner-event.constants';
import type { PartnerPayoutStatusEvent, PartnerWebhookEvent } from './partner-event.types';
import { toPartnerPayoutStatusEvent } from './payout-status.util';
import { PartnerWebhookConfigurationError } from '../webhook.errors';

export interface PartnerDispatchResult {
  /** Event names emitted, in order. */
  emitted: string[];
  /** The unified payout status this delivery stands for, if any. */
  payoutStatus: PartnerPayoutStatusEvent | null;
}

/**
 * Emits a parsed delivery to the host app's handlers (emitToAllListeners), so a handler that throws
 * (with suppressErrors: false, which `@OnPartnerEvent` sets) rejects the dispatch and the inbox entry
 * is marked failed instead of processed.
 *
 * A payout delivery of either family is also emitted as its unified status
 * (PartnerDerivedEvent.PayoutStatus), derived from that delivery alone: nothing is remembered
 * between deliveries. Twin deliveries of one transition (spec 6.4.7) each emit it, and the inbox
 * runs each delivery's handlers once (spec 6.1.4), so a handler sees a transition once per family
 * that reports it and applies it idempotently, forward only (decidePayoutStatusChange).
 */
@Injectable()
export class PartnerWebhookDispatcher {
  constructor(@Optional() private readonly emitter?: EventEmitter2) {}

  async dispatch(event: PartnerWebhookEvent<string, unknown>): Promise<PartnerDispatchResult> {
    const emitter = this.requireEmitter();
    // spec 6.1.5: unknown types are acknowledged, recorded and surfaced on one derived name, so a
    // future partner event can never collide with a handler the app has not written yet.
    const name = event.known ? event.name : PartnerDerivedEvent.Unknown;
    await emitToAllListeners(emitter, name, event);
    const emitted = [name];
    const payoutStatus = event.known ? toPartnerPayoutStatusEvent(event) : null;
    if (payoutStatus) {
      await emitToAllListeners(emitter, PartnerDerivedEvent.PayoutStatus, payoutStatus);
      emitted.push(PartnerDerivedEvent.PayoutStatus);
    }
    return { emitted, payoutStatus };
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
 * Calls every listener of `name` (and every onAny listener) and waits until ALL have settled
 * before rejecting with the first failure. EventEmitter2.emitAsync rejects as soon as one handler
 * fails while the others are still running: with a unit of work around the dispatch (the inbox
 * store's process), their writes would then land after the rollback, outside it.
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
  // Each listener in span `partner.webhook handler`, so the host's writes nest under it.
  const results = await Promise.allSettled(
    calls.map((call, index) => traceHandler(name, index, async () => call())),
  );
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}
