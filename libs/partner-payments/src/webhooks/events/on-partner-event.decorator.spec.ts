import { EVENT_LISTENER_METADATA } from '@nestjs/event-emitter';
import { OnPartnerEvent } from './on-partner-event.decorator';
import { PartnerDerivedEvent, PartnerEvent } from './partner-event.constants';
import type { PartnerEventOf, PartnerPayoutStatusEvent } from './partner-event.types';

/*
 * The type-level half of these tests is checked by `npm run typecheck` (tsc includes spec files):
 * each @ts-expect-error fails the typecheck if the line it marks stops being an error.
 */
class Handlers {
  @OnPartnerEvent(PartnerEvent.PayoutCompleted)
  completed(e: PartnerEventOf<'payout.completed'>): string | null {
    const reference: string | null = e.payload.reference_number;
    // @ts-expect-error reference_number is string | null, not a number
    const wrong: number = e.payload.reference_number;
    void wrong;
    return reference;
  }

  @OnPartnerEvent(PartnerEvent.PayoutStatusChanged)
  statusChanged(e: PartnerEventOf<'payout.status_changed'>): string {
    return e.payload.data.status; // V2: the payout fields are typed under data.data
  }

  @OnPartnerEvent(PartnerDerivedEvent.PayoutStatus, { suppressErrors: true })
  unified(e: PartnerPayoutStatusEvent): string {
    return e.payoutId;
  }

  // @ts-expect-error a payout.completed handler cannot take a user.created event
  @OnPartnerEvent(PartnerEvent.PayoutCompleted)
  mismatched(e: PartnerEventOf<'user.created'>): void {
    void e;
  }
}

function listenerOptions(method: keyof Handlers): unknown {
  const meta = Reflect.getMetadata(EVENT_LISTENER_METADATA, Handlers.prototype[method]) as Array<{
    event: unknown;
    options?: { suppressErrors?: boolean };
  }>;
  return meta.map((m) => ({ event: m.event, suppressErrors: m.options?.suppressErrors }));
}

describe('@OnPartnerEvent', () => {
  it('registers an @OnEvent listener that lets handler errors through by default', () => {
    expect(listenerOptions('completed')).toEqual([{ event: 'payout.completed', suppressErrors: false }]);
    expect(listenerOptions('statusChanged')).toEqual([
      { event: 'payout.status_changed', suppressErrors: false },
    ]);
  });

  it('keeps an explicit suppressErrors', () => {
    expect(listenerOptions('unified')).toEqual([
      { event: PartnerDerivedEvent.PayoutStatus, suppressErrors: true },
    ]);
  });
});
