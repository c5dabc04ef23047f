import { BadRequestException, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { Access } from '../../common/access.guard';
import { PartnerVirtualAccountsService, type PartnerVirtualAccountBalance } from '@partner-payments/nestjs';
import {
  DepositReconciliationService,
  type DepositReconciliationSummary,
} from './deposit-reconciliation.service';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Read-through endpoints (a template for the user's own): the partner answers, the app adds nothing
 * it would have to keep in sync. The partner's errors go to the app's PartnerErrorFilter (a
 * balance asked while the account is activating is the partner's 400, evidence §5: 409 here).
 */
@Access('caller')
@Controller('virtual-accounts')
export class VirtualAccountsController {
  constructor(private readonly virtualAccounts: PartnerVirtualAccountsService) {}

  /** GET /virtual-accounts/:id/balance: the partner's available balance. */
  @Get(':id/balance')
  balance(@Param('id') id: string): Promise<PartnerVirtualAccountBalance> {
    if (!UUID_RE.test(id)) throw new BadRequestException({ field: 'id', message: 'must be a UUID' });
    // A partner failure is answered by its cause by PartnerErrorFilter (common/partner-error.filter.ts).
    return this.virtualAccounts.getBalance(id);
  }
}

@Access('operator')
@Controller('reconciliation/deposits')
export class DepositReconciliationController {
  constructor(private readonly reconciliation: DepositReconciliationService) {}

  /** Runs one deposit reconciliation pass now (the cron job's code, under the same lock). */
  @Post('run')
  @HttpCode(200)
  run(): Promise<DepositReconciliationSummary> {
    return this.reconciliation.runOnce();
  }
}
