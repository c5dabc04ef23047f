import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { Access } from '../common/access.guard';
import { PayoutRedriveService, type RedriveSummary } from './payout-redrive.service';

/**
 * What GET /payouts/redrive answers: requests per state, and those an operator must review. Never
 * the memo (free text the user typed); amount and recipient find the payout at the partner.
 */
export interface RedriveReport {
  states: Record<string, number>;
  needs_review: Array<{
    idempotency_key: string;
    virtual_account_id: string;
    recipient_id: string;
    amount: string;
    currency: string;
    attempts: number;
    last_error: string | null;
    created_at: string;
  }>;
}

/**
 * The outbox re-drive of POST /payouts, for operators. Registered before PayoutsController so
 * `GET /payouts/redrive` is not read as `GET /payouts/:payoutId`.
 */
@Access('operator')
@Controller('payouts/redrive')
export class PayoutRedriveController {
  constructor(private readonly redrive: PayoutRedriveService) {}

  /** One re-drive pass now (the cron job's code, under the same lock). */
  @Post('run')
  @HttpCode(200)
  run(): Promise<RedriveSummary> {
    return this.redrive.runOnce();
  }

  @Get()
  async report(): Promise<RedriveReport> {
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
