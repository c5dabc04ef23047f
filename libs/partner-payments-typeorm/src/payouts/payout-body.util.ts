import { createHash } from 'node:crypto';
import type { CreatePartnerPayoutInput, PartnerFieldError } from '@partner-payments/nestjs';
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

/** The columns' bounds (partner_payout_requests): a longer value could not be stored as it is. */
const BOUNDS: ReadonlyArray<[field: string, max: number, read: (r: PartnerOutboxPayoutRequest) => unknown]> =
  [
    ['virtualAccountId', 64, (r) => r.virtualAccountId],
    ['recipient_id', 64, (r) => r.body?.recipient_id],
    ['amount', 32, (r) => r.body?.amount],
    ['currency', 8, (r) => r.body?.currency],
  ];

/**
 * What keeps a request from being stored exactly (checked before anything is written): the key and
 * each field a non-empty string within its column, the memo a string when given. The module checks
 * the rest (UUIDs, the amount's format, the memo's 255 characters) when it sends, before any I/O;
 * its refusal marks the stored request rejected.
 */
export function storageProblems(key: unknown, request: PartnerOutboxPayoutRequest): PartnerFieldError[] {
  const problems: PartnerFieldError[] = [];
  if (typeof key !== 'string' || key === '' || key.length > 64)
    problems.push({ field: 'idempotencyKey', message: 'must be a string of 1 to 64 characters' });
  for (const [field, max, read] of BOUNDS) {
    const value = read(request ?? ({} as PartnerOutboxPayoutRequest));
    if (typeof value !== 'string' || value === '' || value.length > max)
      problems.push({ field, message: `must be a string of 1 to ${max} characters` });
  }
  const memo: unknown = request?.body?.extra_info?.memo;
  if (memo !== undefined && typeof memo !== 'string')
    problems.push({ field: 'extra_info.memo', message: 'must be a string' });
  return problems;
}
