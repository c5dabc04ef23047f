import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { PartnerRfisService } from '@partner-payments/nestjs';
import { PartnerConflictError } from '@partner-payments/nestjs/errors';
import { validateRfiAnswers, type RfiItem } from '@partner-payments/nestjs/models';
import { itemFromRow } from './rfi-mapping.util';
import { rfiRefusal } from './rfi-partner-errors.util';
import { RfiProjection } from './rfi-projection.service';
import { requireUuid } from './rfi-query.rules';
import { RfiSync } from './rfi-sync.service';

/**
 * Answers an RFI's items through the partner (spec 4.3), each checked first against its stored
 * answer_type and answer_spec with the library's validator, so a bad answer is named and nothing
 * is sent (the partner's PATCH is all or nothing, evidence §7). The items the partner answers back
 * are written to the projection; the RFI itself is read again afterwards (its status may move).
 */
@Injectable()
export class RfiAnswering {
  constructor(
    private readonly rfis: PartnerRfisService,
    private readonly projection: RfiProjection,
    private readonly sync: RfiSync,
  ) {}

  /** The RFI's items as the app knows them; read from the partner first when it knows none yet. */
  async knownItems(rfiId: string): Promise<RfiItem[]> {
    let found = await this.projection.find(rfiId);
    if (!found || (found.rfi.stale && found.items.length === 0)) {
      await this.sync.read(rfiId);
      found = await this.projection.find(rfiId);
    }
    if (!found || found.rfi.status === 'withdrawn')
      throw new NotFoundException([`rfi_id ${rfiId} is not an RFI the partner knows for this account`]);
    return found.items.map(itemFromRow);
  }

  async answer(rfiIdParam: string, body: unknown): Promise<{ items: RfiItem[] }> {
    const rfiId = requireUuid(rfiIdParam, 'rfi_id');
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new BadRequestException(['body must be an object { items: [{ item_id, answer_value }] }']);
    const extra = Object.keys(body).filter((k) => k !== 'items');
    if (extra.length) throw new BadRequestException(extra.map((k) => `${k} is not a known field (items)`));
    const { items } = body as { items?: unknown };
    // Shape first (no read for a body that cannot be sent), then against the items' rules.
    validateRfiAnswers(items);
    const known = await this.knownItems(rfiId);
    validateRfiAnswers(items, known);
    try {
      const answered = await this.rfis.answerItems(rfiId, items, { knownItems: known });
      await this.projection.applyItems(rfiId, answered);
      this.sync.readSoon(rfiId);
      return { items: answered };
    } catch (error) {
      throw this.refused(rfiId, error);
    }
  }

  /**
   * evidence §7: `{download_url, expires_at}`, a presigned link that lasts minutes and is a bearer
   * credential: handed to the operator, never stored or logged.
   */
  async documentLink(
    rfiId: string,
    itemId: string,
    documentId: string,
  ): Promise<{ downloadUrl: string; expiresAt: string | null }> {
    return this.rfis.getDocumentLink(
      requireUuid(rfiId, 'rfi_id'),
      requireUuid(itemId, 'item_id'),
      requireUuid(documentId, 'document_id'),
    );
  }

  /** The error to answer for a partner refusal; a closed RFI is read again so the list drops it. */
  refused(rfiId: string, error: unknown): unknown {
    if (error instanceof PartnerConflictError) this.sync.readSoon(rfiId);
    return rfiRefusal(error) ?? error;
  }
}
