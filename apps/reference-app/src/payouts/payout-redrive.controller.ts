import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../common/access.guard';
import { RedriveReportDto, RedriveSummaryDto } from './payout-answers.dto';
import { PayoutRedriveService, type RedriveSummary } from './payout-redrive.service';

/**
 * The outbox re-drive of POST /payouts, for operators. Registered before PayoutsController so
 * `GET /payouts/redrive` is not read as `GET /payouts/:payoutId`.
 */
@ApiTags('payouts (operator)')
@Access('operator')
@Controller('payouts/redrive')
export class PayoutRedriveController {
  constructor(private readonly redrive: PayoutRedriveService) {}

  /** One re-drive pass now (the cron job's code, under the same lock). */
  @Post('run')
  @HttpCode(200)
  @ApiOperation({
    summary: 'One outbox re-drive pass now',
    description:
      'Re-sends payout requests left pending past PAYOUT_REDRIVE_GRACE_SECONDS with their Idempotency-Key (the cron job, under the same lock).',
  })
  @ApiOkResponse({ type: RedriveSummaryDto, description: 'what the pass did' })
  run(): Promise<RedriveSummary> {
    return this.redrive.runOnce();
  }

  @Get()
  @ApiOperation({ summary: 'Payout requests per state and those left needs_review (newest 100)' })
  @ApiOkResponse({ type: RedriveReportDto, description: 'counts by state and the requests to review' })
  async report(): Promise<RedriveReportDto> {
    const { states, needsReview } = await this.redrive.report();
    return {
      states,
      needs_review: needsReview.map((r) => ({
        idempotency_key: r.idempotencyKey,
        virtual_account_id: r.virtualAccountId,
        recipient_id: r.recipientId,
        amount: r.amount,
        currency: r.currency,
        attempts: r.attempts,
        last_error: r.lastError,
        created_at: r.createdAt.toISOString(),
      })),
    };
  }
}
