import { BadGatewayException, HttpException } from '@nestjs/common';
import { PartnerApiError, PartnerVirtualAccountNotActiveError } from '@partner-payments/nestjs';

/** The partner's answer as the caller's: its 4xx passed through (401/403 are ours: 502), the rest 502. */
export function translatePartnerReadError(error: unknown): HttpException {
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
