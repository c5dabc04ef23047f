import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { PartnerInboxDrainSummary, PartnerInboxPruneSummary } from '@partner-payments/typeorm';

/** At most this many entries listed or named per call (GET /inbox/dead, POST /inbox/dead/retry). */
export const INBOX_MAX_IDS = 500;

/* The inbox routes' bodies and answers as OpenAPI schemas; each implements the type the route uses. */

export class RedeliverySummaryDto implements PartnerInboxDrainSummary {
  @ApiProperty({ type: 'boolean', description: 'false: another replica held the job' })
  ran!: boolean;
  @ApiProperty({ type: 'integer' })
  processed!: number;
  @ApiProperty({ type: 'integer' })
  failed!: number;
  @ApiProperty({
    type: 'integer',
    description: 'entries this process was handling at that moment, left to it',
  })
  skipped!: number;
  @ApiProperty({ type: 'integer' })
  batches!: number;
  @ApiProperty({ type: 'integer', description: 'entries past INBOX_MAX_ATTEMPTS, left dead' })
  dead!: number;
}

export class PruneSummaryDto implements PartnerInboxPruneSummary {
  @ApiProperty({ type: 'boolean', description: 'false: another replica held the job' })
  ran!: boolean;
  @ApiProperty({ type: 'integer', description: 'processed entries older than INBOX_RETENTION_DAYS deleted' })
  deleted!: number;
  @ApiProperty({ type: 'integer' })
  batches!: number;
}

/** A dead inbox entry: ids, event, attempts and last error, never its body. */
export class DeadEntryDto {
  @ApiProperty({ type: 'string' })
  event_id!: string;
  @ApiProperty({ type: 'string', example: 'payout.completed' })
  event!: string;
  @ApiProperty({ type: 'integer' })
  attempts!: number;
  @ApiProperty({ type: 'string', nullable: true })
  last_error!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time' })
  received_at!: string;
}

export class DeadEntriesDto {
  @ApiProperty({ type: () => [DeadEntryDto], description: 'oldest first' })
  entries!: DeadEntryDto[];
}

/** Body of POST /inbox/dead/retry (checked by the route itself, which names a bad field). */
export class RetryDeadBodyDto {
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', minLength: 1 },
    minItems: 1,
    maxItems: INBOX_MAX_IDS,
    description: 'the dead entries to retry; omitted: every dead entry',
  })
  event_ids?: string[];
}

export class RetryDeadAnswerDto {
  @ApiProperty({ type: 'integer', description: 'dead entries made due again' })
  requeued!: number;
  @ApiProperty({ type: () => RedeliverySummaryDto, description: 'the redelivery job run right after' })
  redelivery!: RedeliverySummaryDto;
}
