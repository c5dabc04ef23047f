import { Controller, HttpCode, Post } from '@nestjs/common';
import { Access } from '../common/access.guard';
import { ReconciliationService, type ReconciliationSummary } from './reconciliation.service';

@Access('operator')
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
