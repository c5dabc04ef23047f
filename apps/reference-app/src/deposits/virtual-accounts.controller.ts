import {
  BadGatewayException,
  BadRequestException,
  Controller,
  Get,
  HttpCode,
  HttpException,
  Param,
  Post,
} from '@nestjs/common';
import {
  PartnerApiError,
  PartnerVirtualAccountNotActiveError,
  PartnerVirtualAccountsService,
  type PartnerVirtualAccountBalance,
} from '@partner-payments/nestjs';
import {
  DepositReconciliationService,
  type DepositReconciliationSummary,
} from './deposit-reconciliation.service';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Read-through endpoints (a template for the user's own): the partner answers, the app adds nothing
 * it would have to keep in sync. The partner's errors pass through the app's error filter (a
 * balance asked while the account is activating is the partner's 400, evidence §5).
 */
@Controller('virtual-accounts')
export class VirtualAccountsController {
  constructor(private readonly virtualAccounts: PartnerVirtualAccountsService) {}

  /** GET /virtual-accounts/:id/balance: the partner's available balance. */
  @Get(':id/balance')
  balance(@Param('id') id: string): Promise<PartnerVirtualAccountBalance> {
    if (!UUID_RE.test(id)) throw new BadRequestException({ field: 'id', message: 'must be a UUID' });
    return this.virtualAccounts.getBalance(id).catch((error: unknown) => {
      throw translate(error);
    });
  }
}

/** The partner's answer as the caller's: its 4xx passed through (401/403 are ours: 502), the rest 502. */
function translate(error: unknown): HttpException {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof PartnerVirtualAccountNotActiveError)
    return new HttpException({ statusCode: 409, message, error: 'VirtualAccountNotActive' }, 409);
  if (error instanceof PartnerApiError && error.status && error.status >= 400 && error.status < 500) {
    if (error.status === 401 || error.status === 403)
      return new BadGatewayException(`partner refused our credentials or account (${error.status})`);
    return new HttpException({ statusCode: error.status, message, error: 'PartnerRefused' }, error.status);
  }
  return new BadGatewayException(`partner did not answer (${message}); retry later`);
}

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
