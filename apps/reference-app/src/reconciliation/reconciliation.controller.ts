import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../common/access.guard';
import { ApiPartnerFailureResponses } from '../common/api-responses.decorator';
import { ReconciliationSummaryDto } from './reconciliation-answers.dto';
import { ReconciliationService, type ReconciliationSummary } from './reconciliation.service';

@ApiTags('reconciliation')
@Access('operator')
@Controller('reconciliation')
export class ReconciliationController {
  constructor(private readonly reconciliation: ReconciliationService) {}

  /** Runs one pass now (the same code the cron job runs, under the same lock). */
  @Post('run')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Takes part in a payout reconciliation pass now',
    description: 'Joins the pass in progress if any (the cron job, under the same lock).',
  })
  @ApiOkResponse({ type: ReconciliationSummaryDto, description: 'what this replica did in the pass' })
  @ApiPartnerFailureResponses()
  run(): Promise<ReconciliationSummary> {
    return this.reconciliation.runOnce();
  }
}
