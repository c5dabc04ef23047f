import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { RfiReconciliationSummary } from './rfi-reconciliation.service';

/** What an RFI holds (evidence §7 `blocking`): the held payout's or deposit's id. */
export class RfiBlockingDto {
  @ApiProperty({ type: 'string', nullable: true, example: 'payout' })
  type!: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'transfer_uuid or virtual_account_deposit_uuid',
  })
  reference!: string | null;
}

/** An RFI as the app holds it (GET /rfis, GET /rfis/{rfi_id}). */
export class RfiDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  rfi_id!: string;
  @ApiProperty({ type: 'string', nullable: true })
  user_id!: string | null;
  @ApiProperty({
    type: 'string',
    example: 'pending',
    description: 'pending, answered (open); resolved, not_resolved (closed); withdrawn',
  })
  status!: string;
  @ApiProperty({ type: RfiBlockingDto, nullable: true, description: 'null: the RFI holds nothing' })
  blocking!: RfiBlockingDto | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  due_at!: string | null;
  @ApiProperty({ type: 'boolean', description: 'due_at has passed' })
  overdue!: boolean;
  @ApiProperty({ type: 'string', nullable: true, example: 'expired' })
  resolution_reason!: string | null;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: "the partner's created_at, else when the app first heard of it",
  })
  opened_at!: string;
  @ApiProperty({
    type: 'boolean',
    description: 'an event arrived that was not read back yet: items may be missing or old',
  })
  stale!: boolean;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  read_at!: string | null;
  @ApiProperty({ type: 'string', enum: ['event', 'read', 'reconciliation'] })
  last_source!: string;
}

/** An item as the app holds it: no answer value (kept at the partner), documents' metadata only. */
export class RfiItemDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  item_id!: string;
  @ApiProperty({ type: 'integer' })
  ordinal!: number;
  @ApiProperty({ type: 'string' })
  prompt!: string;
  @ApiProperty({ type: 'string', example: 'text_short' })
  answer_type!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { max_length: 50 } })
  answer_spec!: Record<string, unknown>;
  @ApiProperty({ type: 'string', nullable: true })
  target_key!: string | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true })
  subject!: unknown;
  @ApiProperty({ type: 'string', example: 'pending' })
  status!: string;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  documents!: unknown[];
  @ApiProperty({ type: 'string', nullable: true })
  review_note!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  updated_at!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  returned_at!: string | null;
}

export class RfiListDto {
  @ApiProperty({ type: [RfiDto] })
  rfis!: RfiDto[];
}

export class RfiWithItemsDto extends RfiDto {
  @ApiProperty({ type: [RfiItemDto] })
  items!: RfiItemDto[];
}

/** The partner's items as it answered them (spec 4.3 success: { items }). */
export class RfiAnsweredItemsDto {
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  items!: Array<Record<string, unknown>>;
}

/** The partner's item after an upload (spec 4.2 success: { item }). */
export class RfiUploadedItemDto {
  @ApiProperty({ type: 'object', additionalProperties: true })
  item!: Record<string, unknown>;
}

/** evidence §7: a presigned link that lasts minutes; a bearer credential, not stored. */
export class RfiDocumentLinkDto {
  @ApiProperty({ type: 'string', format: 'uri' })
  download_url!: string;
  @ApiPropertyOptional({ type: 'string', format: 'date-time', nullable: true })
  expires_at!: string | null;
}

/** One RFI reconciliation pass (POST /rfis/reconciliation/run). */
export class RfiReconciliationSummaryDto implements RfiReconciliationSummary {
  @ApiProperty({ type: 'boolean', description: 'false: another replica held the job, this pass did nothing' })
  ran!: boolean;
  @ApiProperty({ type: 'integer', description: "entries of the partner's list read" })
  listed!: number;
  @ApiProperty({ type: 'integer', description: 'RFIs the app did not have (their event was lost)' })
  missing!: number;
  @ApiProperty({
    type: 'integer',
    description: 'RFIs whose status, deadline or blocking only the resource showed',
  })
  changed!: number;
  @ApiProperty({ type: 'integer', description: 'RFIs read with their items' })
  read!: number;
}

/** An answer the partner refused, beside its item (spec 7.1 per-item shape). */
export class RfiItemErrorDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  item_id!: string;
  @ApiProperty({ type: 'string' })
  message!: string;
}

export class RfiItemErrorsBodyDto {
  @ApiProperty({ type: 'integer', example: 422 })
  statusCode!: number;
  @ApiProperty({ type: 'string', example: 'PartnerRefused' })
  error!: string;
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  message!: string[];
  @ApiProperty({ type: [RfiItemErrorDto] })
  item_errors!: RfiItemErrorDto[];
}
