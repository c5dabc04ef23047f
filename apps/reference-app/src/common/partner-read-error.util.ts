import { BadGatewayException, BadRequestException, HttpException, type LoggerService } from '@nestjs/common';
import { PartnerLocalValidationError } from '@partner-payments/nestjs';
import { PartnerVirtualAccountNotActiveError } from '@partner-payments/nestjs/errors';
import { classifyPartnerFailure } from '@partner-payments/typeorm';

/**
 * A partner failure as this app's answer, by cause (classifyPartnerFailure of
 * @partner-payments/typeorm, the classification its payout outbox uses too):
 * - the partner unavailable (5xx, 429, timeout, reset): 502 "retry later", never its 429 or 5xx
 *   handed to our caller as if the caller had been refused or rate limited;
 * - our credentials or account refused (401/403 after re-authentication, or the token call
 *   failing): 502 naming the app's configuration, logged as an error (an operator must act);
 * - our own validation before any I/O: 400 naming each field;
 * - the partner refusing the request (other 4xx): passed through as `PartnerRefused`.
 */
export function translatePartnerReadError(error: unknown, logger?: LoggerService): HttpException {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof PartnerVirtualAccountNotActiveError)
    return new HttpException({ statusCode: 409, message, error: 'VirtualAccountNotActive' }, 409);
  if (error instanceof PartnerLocalValidationError)
    return new BadRequestException(error.fieldErrors.map((f) => `${f.field} ${f.message}`));
  const failure = classifyPartnerFailure(error);
  switch (failure.kind) {
    case 'unknown-outcome':
      return new BadGatewayException(`partner did not answer (${message}); retry later`);
    case 'our-configuration':
      logger?.error(`partner refused our credentials or account (${String(failure.status)}): ${message}`);
      return new BadGatewayException(
        `partner refused our credentials or account (${String(failure.status)}); this is the app's configuration, not the request`,
      );
    case 'in-progress':
    case 'refused': {
      const status = failure.status ?? 400;
      return new HttpException({ statusCode: status, message, error: 'PartnerRefused' }, status);
    }
  }
}
