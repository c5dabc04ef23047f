import { createHash } from 'node:crypto';
import type { CreatePartnerPayoutInput } from '@partner-payments/nestjs';
import { fromStoredText, toStoredText } from '../database/inbox-text.util';
import type { PartnerPayoutRequestEntity } from './payout-request.entity';

/**
 * What the outbox sends as the partner's execute body (evidence §6 [T1 ExecutePayoutService]):
 * the fields it stores, so a re-send carries exactly the body of the first send.
 */
export interface PartnerOutboxPayoutBody {
  /** Gross amount as a decimal string, e.g. "100.00". */
  amount: string;
  currency: string;
  recipient_id: string;
  /** `memo` at most 255 characters (evidence §6); `extra_info: {}` is the same request as none. */
  extra_info?: { memo?: string };
}

/** One payout request: the virtual account it is paid from and the body. */
export interface PartnerOutboxPayoutRequest {
  virtualAccountId: string;
  body: PartnerOutboxPayoutBody;
}

/**
 * sha256 of the fields that make a request: the same key with another body is refused. The memo
 * counts; a request without one hashes the four other fields alone. JSON.stringify escapes lone
 * surrogates, so no two memos share a fingerprint.
 */
export function partnerPayoutFingerprint(request: PartnerOutboxPayoutRequest): string {
  const { body } = request;
  const fields: string[] = [request.virtualAccountId, body.recipient_id, body.amount, body.currency];
  const memo = body.extra_info?.memo;
  if (memo !== undefined) fields.push(memo);
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** The row's columns for a request (the memo lossless, toStoredText). */
export function requestColumns(request: PartnerOutboxPayoutRequest): Record<string, string | null> {
  const memo = request.body.extra_info?.memo;
  return {
    virtual_account_id: request.virtualAccountId,
    recipient_id: request.body.recipient_id,
    amount: request.body.amount,
    currency: request.body.currency,
    memo: memo === undefined ? null : toStoredText(memo),
  };
}

/** The request a row holds, as it was first submitted. */
export function storedRequest(row: PartnerPayoutRequestEntity): PartnerOutboxPayoutRequest {
  return {
    virtualAccountId: row.virtualAccountId,
    body: {
      recipient_id: row.recipientId,
      amount: row.amount,
      currency: row.currency,
      ...(row.memo === null ? {} : { extra_info: { memo: fromStoredText(row.memo) } }),
    },
  };
}

/** The partner's body: extra_info only with a memo, so a re-send equals the first send. */
export function partnerBody(body: PartnerOutboxPayoutBody): CreatePartnerPayoutInput {
  const memo = body.extra_info?.memo;
  return {
    amount: body.amount,
    currency: body.currency,
    recipient_id: body.recipient_id,
    ...(memo === undefined ? {} : { extra_info: { memo } }),
  };
}

/** The first field in which `request` differs from the stored one (for the key-reuse error). */
export function differingField(row: PartnerPayoutRequestEntity, request: PartnerOutboxPayoutRequest): string {
  const stored = storedRequest(row);
  if (stored.virtualAccountId !== request.virtualAccountId) return 'virtualAccountId';
  for (const field of ['recipient_id', 'amount', 'currency'] as const)
    if (stored.body[field] !== request.body[field]) return field;
  return 'extra_info.memo';
}
