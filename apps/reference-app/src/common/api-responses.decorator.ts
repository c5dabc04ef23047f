import { applyDecorators } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiPayloadTooLargeResponse,
  ApiResponse,
  ApiSecurity,
  ApiUnauthorizedResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { ErrorBodyDto } from './error-body.dto';

/** The OpenAPI security schemes of the access classes (AccessGuard checks the same credentials). */
export const OPERATOR_SECURITY_SCHEME = 'operator';
export const CALLER_SECURITY_SCHEME = 'caller';

/** What a 401 of each credentialed class says (AccessGuard's refusals). */
export const UNAUTHORIZED_DESCRIPTIONS = {
  operator:
    'operator token missing or not accepted (Authorization: Bearer <OPERATOR_TOKEN>), or OPERATOR_TOKEN not configured; WWW-Authenticate names the scheme',
  caller:
    'API key missing or not accepted (X-Api-Key: <one of APP_API_KEYS>), or APP_API_KEYS not configured; WWW-Authenticate names the scheme',
} as const;

/**
 * The OpenAPI side of `@Access(...)` on one handler: the security requirement of its class and its
 * 401. A public route requires nothing (an empty requirement).
 */
export function ApiAccess(access: 'operator' | 'caller' | 'public'): MethodDecorator {
  if (access === 'public') return ApiSecurity({});
  return applyDecorators(
    ApiSecurity(access === 'operator' ? OPERATOR_SECURITY_SCHEME : CALLER_SECURITY_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorBodyDto, description: UNAUTHORIZED_DESCRIPTIONS[access] }),
  );
}

/**
 * A route that calls the partner answers its failures by cause (common/partner-read-error.util.ts):
 * 502 when it did not answer or refused our configuration, its own 4xx as PartnerRefused.
 */
export function ApiPartnerFailureResponses(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiBadGatewayResponse({
      type: ErrorBodyDto,
      description:
        "the partner did not answer (5xx, 429, timeout, reset: retry later), or refused the app's credentials or account (the app's configuration)",
    }),
    ApiResponse({
      status: '4XX',
      type: ErrorBodyDto,
      description: "the partner refused the request: its status, `error: 'PartnerRefused'`",
    }),
  );
}

/** The app's own JSON bodies (app-bootstrap.util.ts, common/json-depth.middleware.ts). */
export function ApiJsonBodyResponses(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiPayloadTooLargeResponse({ description: 'body over 100 kB, refused before it is parsed' }),
    ApiUnsupportedMediaTypeResponse({
      type: ErrorBodyDto,
      description: 'a body that is not application/json',
    }),
  );
}
