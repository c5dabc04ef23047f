import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { PartnerApiError, PartnerLocalValidationError } from '@partner-payments/nestjs';
import { translatePartnerReadError } from './partner-read-error.util';

/**
 * On every route, a partner error that reaches Nest (an operator job run by hand,
 * such as POST /reconciliation/deposits/run, or any route you add) is answered by its cause, as
 * the read-through endpoints answer it, instead of Nest's 500 "Internal server error" with a stack
 * logged per request. POST /payouts translates its own errors first (it also settles the key).
 */
@Catch(PartnerApiError, PartnerLocalValidationError)
export class PartnerErrorFilter extends BaseExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('PartnerErrors');

  override catch(error: PartnerApiError | PartnerLocalValidationError, host: ArgumentsHost): void {
    super.catch(translatePartnerReadError(error, this.logger), host);
  }
}
