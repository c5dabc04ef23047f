import { createHash } from 'node:crypto';
import type { PartnerPayout } from '@partner-payments/nestjs';
import type { PartnerFieldError } from '@partner-payments/nestjs/errors';
import type { CreatePartnerPayoutInput } from '@partner-payments/nestjs/models';
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

/**
 * What the module refuses when it sends (PartnerPayoutsService.create): checked here too, before
 * the row is stored, so a request it would refuse leaves no row under its key. The key is a UUID
 * v4 (spec 4.7), the ids UUIDs (spec 2.3, 4.6), the amount a positive decimal string with up to 2
 * decimals (provider-facts), the memo at most 255 UTF-16 units (evidence §6 [T1 ExecutePayoutService]).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const isAmount = (v: string) => /^[0-9]+(\.[0-9]{1,2})?$/.test(v) && Number(v) > 0;
const MEMO_MAX = 255;

/** The columns' bounds (partner_payout_requests) and the module's format of each field. */
const FIELDS: ReadonlyArray<
  [
    field: string,
    max: number,
    read: (r: PartnerOutboxPayoutRequest) => unknown,
    format: [(v: string) => boolean, string],
  ]
> = [
  ['virtualAccountId', 64, (r) => r.virtualAccountId, [(v) => UUID.test(v), 'must be a UUID']],
  ['recipient_id', 64, (r) => r.body?.recipient_id, [(v) => UUID.test(v), 'must be a UUID']],
  [
    'amount',
    32,
    (r) => r.body?.amount,
    [isAmount, 'must be a positive decimal string with up to 2 decimals, e.g. "100.00"'],
  ],
  ['currency', 8, (r) => r.body?.currency, [() => true, '']],
];

/**
 * What keeps a request from being stored and sent (checked before anything is written): the key a
 * UUID v4, each field a non-empty string within its column and in the module's format, the memo a
 * string of at most 255 characters when given.
 */
export function storageProblems(key: unknown, request: PartnerOutboxPayoutRequest): PartnerFieldError[] {
  const problems: PartnerFieldError[] = [];
  if (typeof key !== 'string' || !UUID_V4.test(key))
    problems.push({ field: 'idempotencyKey', message: 'must be a UUID v4 (spec 4.7)' });
  for (const [field, max, read, [valid, format]] of FIELDS) {
    const value = read(request ?? ({} as PartnerOutboxPayoutRequest));
    if (typeof value !== 'string' || value === '' || value.length > max)
      problems.push({ field, message: `must be a string of 1 to ${max} characters` });
    else if (!valid(value)) problems.push({ field, message: format });
  }
  const memo: unknown = request?.body?.extra_info?.memo;
  if (memo !== undefined && (typeof memo !== 'string' || memo.length > MEMO_MAX))
    problems.push({
      field: 'extra_info.memo',
      message: `must be a string of at most ${MEMO_MAX} characters`,
    });
  return problems;
}

/**
 * Why the partner's `payout` cannot be the stored request (an operator's resolution naming a
 * payout), or null. A field the partner's GET leaves out (null) is not compared.
 */
export function payoutMismatch(row: PartnerPayoutRequestEntity, payout: PartnerPayout): string | null {
  const pairs: Array<[field: string, theirs: string | null, ours: string]> = [
    ['virtual account', payout.virtualAccountId, row.virtualAccountId],
    ['recipient_id', payout.recipientId, row.recipientId],
    ['amount', payout.amount, row.amount],
    ['currency', payout.currency, row.currency],
  ];
  for (const [field, theirs, ours] of pairs) {
    if (theirs === null) continue;
    const same =
      field === 'amount' ? Number(theirs) === Number(ours) : theirs.toLowerCase() === ours.toLowerCase();
    if (!same) return `payout ${payout.payoutId} has another ${field} than the request`;
  }
  return null;
}

/** An operator's finding (PartnerPayoutOutbox.resolve): a payout id, or null with a reason. */
export function resolutionProblems(resolution: unknown): PartnerFieldError[] {
  if (typeof resolution !== 'object' || resolution === null)
    return [{ field: 'resolution', message: 'must be { payoutId } or { payoutId: null, reason }' }];
  const { payoutId, reason } = resolution as Record<string, unknown>;
  if (payoutId === null)
    return typeof reason === 'string' && reason.trim() !== '' && reason.length <= 1000
      ? []
      : [{ field: 'reason', message: 'must be a non-blank string of at most 1000 characters' }];
  // payout_id's column holds 64 characters.
  return typeof payoutId === 'string' && payoutId.trim() !== '' && payoutId.length <= 64
    ? []
    : [{ field: 'payoutId', message: 'must be a payout id of 1 to 64 characters, or null with a reason' }];
}
