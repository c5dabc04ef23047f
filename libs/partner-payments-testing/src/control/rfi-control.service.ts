import { nowIso } from '../server/ids.util';
import type { AnswerType, RfiItemRecord, RfiStatus } from '../server/rfi-state.types';
import { emitRfiClosed } from '../resources/rfis/rfi-lookup.util';
import { refreshRfiStatus, rfiItemView, seedRfi } from '../resources/rfis/rfi-seed.service';
import type { SeedRfiInput, SeededRfi } from './control-inputs.types';
import { clone, InProcessDeliveryControl } from './delivery-control.service';

/**
 * The control operations on RFIs: seeding one and playing the partner's reviewer (spec 3.1,
 * evidence §7). InProcessControl extends this class.
 */
export class InProcessRfiControl extends InProcessDeliveryControl {
  async seedRfi(input: SeedRfiInput): Promise<SeededRfi> {
    const rfi = seedRfi(this.ctx, input);
    const itemIdsByType: Partial<Record<AnswerType, string>> = {};
    for (const item of rfi.items) itemIdsByType[item.answer_type] ??= item.item_id;
    return {
      rfiId: rfi.rfi_id,
      userId: rfi.user_id,
      itemIds: rfi.items.map((i) => i.item_id),
      itemIdsByType,
      items: clone(rfi.items.map((i) => rfiItemView(this.ctx, rfi, i))),
    };
  }

  private rfi(rfiId: string) {
    const rfi = this.ctx.store.rfis.get(rfiId.toLowerCase());
    if (!rfi) throw new Error(`unknown rfi ${rfiId}`);
    return rfi;
  }

  /** Sends an item back: returned_at and review_note set, status pending again (sandbox choice; spec 3.1 leaves it open). */
  async returnRfiItem(rfiId: string, itemId: string, reviewNote: string): Promise<RfiItemRecord> {
    const rfi = this.rfi(rfiId);
    const item = rfi.items.find((i) => i.item_id === itemId.toLowerCase());
    if (!item) throw new Error(`item ${itemId} is not in rfi ${rfiId}`);
    item.returned_at = nowIso();
    item.review_note = reviewNote;
    item.status = 'pending';
    refreshRfiStatus(rfi);
    return clone(rfiItemView(this.ctx, rfi, item));
  }

  async setRfiStatus(
    rfiId: string,
    status: RfiStatus,
    resolutionReason?: 'expired' | 'rejected',
  ): Promise<void> {
    const allowed: RfiStatus[] = ['pending', 'answered', 'resolved', 'not_resolved', 'withdrawn'];
    if (!allowed.includes(status)) throw new Error(`unknown rfi status ${String(status)}`);
    if (resolutionReason !== undefined && !['expired', 'rejected'].includes(resolutionReason))
      throw new Error(`unknown resolution_reason ${String(resolutionReason)}; use expired or rejected`);
    const rfi = this.rfi(rfiId);
    rfi.status = status;
    rfi.updated_at = nowIso();
    // evidence §7: `expired` (the due date passed, never extended) or `rejected`; T1 also stores `withdrawn`.
    rfi.resolution_reason =
      status === 'not_resolved'
        ? (resolutionReason ?? 'expired')
        : status === 'withdrawn'
          ? 'withdrawn'
          : null;
    if (status === 'resolved' || status === 'not_resolved') emitRfiClosed(this.ctx, rfi, status);
  }
}
