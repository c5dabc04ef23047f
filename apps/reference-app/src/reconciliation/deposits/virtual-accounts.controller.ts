import { BadRequestException, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Access } from '../../common/access.guard';
import { ApiPartnerFailureResponses } from '../../common/api-responses.decorator';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { PartnerVirtualAccountsService } from '@partner-payments/nestjs';
import type { PartnerVirtualAccountBalance } from '@partner-payments/nestjs/models';
import {
  DepositReconciliationService,
  type DepositReconciliationSummary,
} from './deposit-reconciliation.service';
import { DepositReconciliationSummaryDto, VirtualAccountBalanceDto } from './deposit-answers.dto';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Read-through endpoints (a template for the user's own): the partner answers, the app adds nothing
 * it would have to keep in sync. The partner's errors go to the app's PartnerErrorFilter (a
 * balance asked while the account is activating is the partner's 400, evidence §5: 409 here).
 */
@ApiTags('virtual accounts')
@Access('caller')
@Controller('virtual-accounts')
export class VirtualAccountsController {
  constructor(private readonly virtualAccounts: PartnerVirtualAccountsService) {}

  /** GET /virtual-accounts/:id/balance: the partner's available balance. */
  @Get(':id/balance')
  @ApiOperation({ summary: "The virtual account's available balance, read through from the partner" })
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: VirtualAccountBalanceDto, description: "the partner's answer, as it sent it" })
  @ApiBadRequestResponse({
    description: 'the id is not a UUID',
    schema: {
      type: 'object',
      properties: {
        field: { type: 'string', example: 'id' },
        message: { type: 'string', example: 'must be a UUID' },
      },
      required: ['field', 'message'],
    },
  })
  @ApiConflictResponse({
    type: ErrorBodyDto,
    description: "VirtualAccountNotActive: the account is still activating (the partner's 400, evidence §5)",
  })
  @ApiPartnerFailureResponses()
  balance(@Param('id') id: string): Promise<PartnerVirtualAccountBalance> {
    if (!UUID_RE.test(id)) throw new BadRequestException({ field: 'id', message: 'must be a UUID' });
    // A partner failure is answered by its cause by PartnerErrorFilter (common/partner-error.filter.ts).
    return this.virtualAccounts.getBalance(id);
  }
}

@ApiTags('reconciliation')
@Access('operator')
@Controller('reconciliation/deposits')
export class DepositReconciliationController {
  constructor(private readonly reconciliation: DepositReconciliationService) {}

  /** Runs one deposit reconciliation pass now (the cron job's code, under the same lock). */
  @Post('run')
  @HttpCode(200)
  @ApiOperation({
    summary: 'One deposit reconciliation pass now',
    description:
      'Finds deposits whose webhook was lost and statuses only the resource showed (the cron job, under the same lock).',
  })
  @ApiOkResponse({ type: DepositReconciliationSummaryDto, description: 'what the pass did' })
  @ApiPartnerFailureResponses()
  run(): Promise<DepositReconciliationSummary> {
    return this.reconciliation.runOnce();
  }
}
