import { Controller, HttpCode, Post } from '@nestjs/common';
import { ReconciliationService, type ReconciliationSummary } from './reconciliation.service';

@Controller('reconciliation')
export class ReconciliationController {
  constructor(private readonly reconciliation: ReconciliationService) {}

  /** Runs one pass now (the same code the cron job runs, under the same lock). */
  @Post('run')
  @HttpCode(200)
  run(): Promise<ReconciliationSummary> {
    return this.reconciliation.runOnce();
  }
}
