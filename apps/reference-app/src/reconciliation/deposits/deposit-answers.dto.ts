import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { PartnerVirtualAccountBalance } from '@partner-payments/nestjs/models';
import type { DepositReconciliationSummary } from './deposit-reconciliation.service';

/** One deposit reconciliation pass (POST /reconciliation/deposits/run). */
export class DepositReconciliationSummaryDto implements DepositReconciliationSummary {
  @ApiProperty({ type: 'boolean', description: 'false: another replica held the job, this pass did nothing' })
  ran!: boolean;
  @ApiProperty({ type: 'integer' })
  pages!: number;
  @ApiProperty({ type: 'integer' })
  read!: number;
  @ApiProperty({ type: 'integer', description: 'deposits the app did not have (their webhook was lost)' })
  missing!: number;
  @ApiProperty({ type: 'integer', description: 'statuses only the resource showed' })
  changed!: number;
}

/** The partner's balance, read through (GET /virtual-accounts/:id/balance); its other fields pass too. */
export class VirtualAccountBalanceDto implements PartnerVirtualAccountBalance {
  [key: string]: unknown;
  @ApiProperty({ type: 'string', example: '250.00' })
  available_balance!: string;
  @ApiPropertyOptional({ type: 'string', example: 'USD' })
  currency?: string;
}
