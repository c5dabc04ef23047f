import { ApiProperty } from '@nestjs/swagger';
import type { ReconciliationSummary } from './reconciliation.types';

/** What this replica did in a payout reconciliation pass (POST /reconciliation/run). */
export class ReconciliationSummaryDto implements ReconciliationSummary {
  @ApiProperty({
    type: 'boolean',
    description: "false: this tick's pass had already run, nothing to take part in",
  })
  ran!: boolean;
  @ApiProperty({ type: 'integer' })
  checked!: number;
  @ApiProperty({ type: 'integer' })
  changed!: number;
  @ApiProperty({ type: 'integer' })
  failed!: number;
  @ApiProperty({
    type: 'integer',
    description: 'claims made: list pages settled plus batches of single reads',
  })
  batches!: number;
  @ApiProperty({ type: 'integer', description: 'list pages read (GET /v1/payouts)' })
  pages!: number;
  @ApiProperty({ type: 'integer', description: 'payouts read one by one (GET /v1/payouts/{id})' })
  reads!: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'the shared pass' })
  passId!: string | null;
  @ApiProperty({ type: 'boolean', description: 'false: this replica joined a pass another replica opened' })
  opened!: boolean;
}
