import { Injectable } from '@nestjs/common';
import { OnPartnerEvent, PartnerEvent, type PartnerEventOf } from '@partner-payments/nestjs';
import { columnText } from '../webhooks/projections/column-text.util';
import { RfiProjection } from './rfi-projection.service';
import { normaliseRfiStatus } from './rfi-status.policy';
import { RfiSync } from './rfi-sync.service';

type RfiEventName = typeof PartnerEvent.RfiCreated | typeof PartnerEvent.RfiNotResolved;

/**
 * `rfi.*` events (evidence §9 [T1 REVISION-DOCS §1]: rfi.created and rfi.not_resolved; the full
 * list is not known, and newer than the 2026-04-14 names of spec 6.3). They carry no items, so the
 * handler records what the event says in the inbox's transaction (it commits with the processed
 * mark; a replay writes the same) and asks RfiSync to read the RFI afterwards. The partner does
 * not re-send a lost delivery (spec 6.1.4): the reconciliation job finds what never arrived.
 */
@Injectable()
export class RfiEventHandlers {
  constructor(
    private readonly projection: RfiProjection,
    private readonly sync: RfiSync,
  ) {}

  @OnPartnerEvent(PartnerEvent.RfiCreated)
  async onCreated(event: PartnerEventOf<typeof PartnerEvent.RfiCreated>): Promise<void> {
    await this.apply(event, normaliseRfiStatus(event.payload.status) ?? 'pending');
  }

  /** evidence §9: data `{event_id, rfi_id, user_id, to_status, resolution_reason}`. */
  @OnPartnerEvent(PartnerEvent.RfiNotResolved)
  async onNotResolved(event: PartnerEventOf<typeof PartnerEvent.RfiNotResolved>): Promise<void> {
    await this.apply(event, normaliseRfiStatus(event.payload.to_status) ?? 'not_resolved');
  }

  private async apply(event: PartnerEventOf<RfiEventName>, status: string): Promise<void> {
    const rfiId = event.payload.rfi_id;
    // An event naming no usable RFI has no row to write; the inbox keeps it.
    if (typeof rfiId !== 'string' || rfiId.trim() === '' || rfiId.length > 64) return;
    const userId = typeof event.payload.user_id === 'string' ? columnText(event.payload.user_id, 64) : null;
    await this.projection.applyEvent({ rfiId, userId, status });
    this.sync.readSoon(rfiId);
  }
}
