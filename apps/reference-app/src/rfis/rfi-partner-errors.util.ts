import { HttpException } from '@nestjs/common';
import { PartnerConflictError, PartnerRfiAnswerError } from '@partner-payments/nestjs/errors';

/**
 * The partner's refusals of an answer or an upload, passed on clearly; anything else is left to
 * PartnerErrorFilter (common/partner-error.filter.ts), which answers by cause.
 * - 409: the RFI is closed (resolved or not_resolved) and refuses answers (spec 3.2, 7.3, 7.4).
 * - Per-item errors (spec 4.3 rule 3, 7.1; evidence §7: 422, nothing saved): each beside its item.
 */
export function rfiRefusal(error: unknown): HttpException | null {
  if (error instanceof PartnerConflictError) {
    return new HttpException(
      {
        statusCode: 409,
        error: 'RfiClosed',
        message: `the partner refused: the RFI is closed and no longer accepts answers (${error.message})`,
      },
      409,
    );
  }
  if (error instanceof PartnerRfiAnswerError) {
    const status = error.status ?? 422;
    return new HttpException(
      {
        statusCode: status,
        error: 'PartnerRefused',
        message: error.itemErrors.map((e) => `item ${e.itemId}: ${e.message}`),
        item_errors: error.itemErrors.map((e) => ({ item_id: e.itemId, message: e.message })),
      },
      status,
    );
  }
  return null;
}
