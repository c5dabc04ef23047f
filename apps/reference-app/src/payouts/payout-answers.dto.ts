import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { PartnerPayoutPreview } from '@partner-payments/nestjs/models';
import type { PayoutResponse } from './create-payout.dto';
import type { RedriveSummary } from './payout-redrive.service';

/*
 * The answers of the payout routes as OpenAPI schemas. Each class implements the type the
 * controller returns, so a field added there and not here fails the typecheck.
 */

const nullableString = { type: 'string', nullable: true } as const;
const nullableUuid = { type: 'string', format: 'uuid', nullable: true } as const;
const timestamp = { type: 'string', format: 'date-time' } as const;

/** A stored payout (POST /payouts, GET /payouts/:payoutId). Never the memo. */
export class PayoutAnswerDto implements PayoutResponse {
  @ApiProperty({ type: 'string', format: 'uuid' })
  payout_id!: string;
  @ApiProperty({ type: 'string', description: 'UPPERCASE; only moves forward', example: 'PENDING' })
  status!: string;
  @ApiProperty(nullableString)
  previous_status!: string | null;
  @ApiProperty(nullableUuid)
  virtual_account_id!: string | null;
  @ApiProperty(nullableUuid)
  recipient_id!: string | null;
  @ApiProperty(nullableUuid)
  user_id!: string | null;
  @ApiProperty({ ...nullableString, description: 'decimal string', example: '100.00' })
  amount!: string | null;
  @ApiProperty({ ...nullableString, example: 'USD' })
  currency!: string | null;
  @ApiProperty(nullableUuid)
  idempotency_key!: string | null;
  @ApiProperty({ ...nullableString, description: "the sending bank's reference, null until sent" })
  reference_number!: string | null;
  @ApiProperty(nullableString)
  error_code!: string | null;
  @ApiProperty(nullableString)
  review_reason!: string | null;
  @ApiProperty({ type: 'string', enum: ['create', 'webhook', 'reconciliation'] })
  last_source!: string;
  @ApiProperty(timestamp)
  created_at!: string;
  @ApiProperty(timestamp)
  updated_at!: string;
  @ApiProperty({ ...timestamp, nullable: true })
  last_checked_at!: string | null;
  @ApiProperty({ type: 'integer', description: 'optimistic-lock version' })
  version!: number;
}

/** The partner's fee preview, read through (GET /payouts/preview); other fields the partner sends pass too. */
export class PayoutPreviewDto implements PartnerPayoutPreview {
  [key: string]: unknown;
  @ApiProperty({ type: 'string', example: '100.00' })
  amount!: string;
  @ApiProperty({ type: 'string', example: 'USD' })
  currency!: string;
  @ApiProperty({ type: 'object', additionalProperties: true })
  fees!: Record<string, unknown>;
  @ApiProperty({ type: 'string' })
  recipient_amount!: string;
  @ApiProperty({ type: 'string' })
  recipient_currency!: string;
  @ApiPropertyOptional({ type: 'string' })
  quote_id?: string;
  @ApiPropertyOptional({ type: 'string' })
  quote_expires_at?: string;
}

/** One outbox re-drive pass (POST /payouts/redrive/run). */
export class RedriveSummaryDto implements RedriveSummary {
  @ApiProperty({ type: 'boolean', description: 'false: another replica held the job, this pass did nothing' })
  ran!: boolean;
  @ApiProperty({ type: 'integer' })
  resent!: number;
  @ApiProperty({ type: 'integer' })
  created!: number;
  @ApiProperty({ type: 'integer' })
  rejected!: number;
  @ApiProperty({ type: 'integer' })
  retrying!: number;
  @ApiProperty({ type: 'integer' })
  needsReview!: number;
}

/** A request left for an operator to review; never its memo. */
export class NeedsReviewRequestDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  idempotency_key!: string;
  @ApiProperty({ type: 'string', format: 'uuid' })
  virtual_account_id!: string;
  @ApiProperty({ type: 'string', format: 'uuid' })
  recipient_id!: string;
  @ApiProperty({ type: 'string', example: '100.00' })
  amount!: string;
  @ApiProperty({ type: 'string', example: 'USD' })
  currency!: string;
  @ApiProperty({ type: 'integer' })
  attempts!: number;
  @ApiProperty(nullableString)
  last_error!: string | null;
  @ApiProperty(timestamp)
  created_at!: string;
}

/**
 * What GET /payouts/redrive answers: payout_requests per state, and those an operator must review.
 * Never the memo (free text the user typed); amount and recipient find the payout at the partner.
 */
export class RedriveReportDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { pending: 0, created: 12, rejected: 1, needs_review: 0 },
  })
  states!: Record<string, number>;
  @ApiProperty({ type: () => [NeedsReviewRequestDto] })
  needs_review!: NeedsReviewRequestDto[];
}
