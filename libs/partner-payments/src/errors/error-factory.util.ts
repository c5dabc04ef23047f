import { parseErrorBody } from './error-body.util';
import {
  PartnerApiError,
  type PartnerApiErrorInit,
  PartnerAuthenticationError,
  PartnerConflictError,
  PartnerIdempotencyConflictError,
  PartnerConnectionError,
  PartnerNotFoundError,
  PartnerPermissionError,
  PartnerRateLimitError,
  PartnerRfiAnswerError,
  PartnerServerError,
  PartnerTimeoutError,
  PartnerValidationError,
} from './partner-api.errors';

export interface HttpErrorContext {
  status: number;
  body: unknown;
  requestId?: string | null;
  idempotencyKey?: string | null;
  retryAfterMs?: number | null;
  method?: string;
  path?: string;
}

const DEFAULT_CODES: Record<number, string> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'invalid_request',
  404: 'not_found',
  409: 'conflict',
  422: 'unprocessable',
  429: 'rate_limited',
};

/** Spec 7.1: classify by HTTP status, whatever the body shape. */
export function createPartnerApiError(ctx: HttpErrorContext): PartnerApiError {
  const parsed = parseErrorBody(ctx.body);
  const code =
    parsed.code ?? DEFAULT_CODES[ctx.status] ?? (ctx.status >= 500 ? 'server_error' : 'http_error');
  const where = ctx.method && ctx.path ? `${ctx.method} ${ctx.path}: ` : '';
  const init: PartnerApiErrorInit = {
    status: ctx.status,
    code,
    message: `${where}${ctx.status} ${parsed.message ?? code}`,
    details: parsed.details,
    body: ctx.body,
    requestId: ctx.requestId,
    idempotencyKey: ctx.idempotencyKey,
    fieldErrors: parsed.fieldErrors,
    itemErrors: parsed.itemErrors,
    retryAfterMs: ctx.retryAfterMs,
  };
  const s = ctx.status;
  if (s === 401) return new PartnerAuthenticationError(init);
  if (s === 403) return new PartnerPermissionError(init);
  if (s === 404) return new PartnerNotFoundError(init);
  if (s === 409 && parsed.code === 'idempotency_conflict') {
    const key = ctx.idempotencyKey ? ` ${ctx.idempotencyKey}` : '';
    return new PartnerIdempotencyConflictError({
      ...init,
      message:
        `${where}409 the Idempotency-Key${key} was already used with a different request body; ` +
        `nothing was created (send the original body again, or a new key for a new request)` +
        (parsed.message ? `: ${parsed.message}` : ''),
    });
  }
  if (s === 409) return new PartnerConflictError(init);
  if (s === 429) return new PartnerRateLimitError(init);
  if (s >= 500) return new PartnerServerError(init);
  // The PATCH error status is "not shown" (spec 7.4): any other 4xx carrying item errors is an answer refusal.
  if (parsed.itemErrors.length > 0 && s >= 400) return new PartnerRfiAnswerError(init);
  if (s === 400 || s === 422) return new PartnerValidationError(init);
  return new PartnerApiError(init);
}

export interface NetworkErrorContext {
  /** errno-like code: 'ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', ... */
  errorCode: string | undefined;
  timedOut: boolean;
  message: string;
  idempotencyKey?: string | null;
  method?: string;
  path?: string;
  cause?: unknown;
}

export function createPartnerNetworkError(ctx: NetworkErrorContext): PartnerConnectionError {
  const where = ctx.method && ctx.path ? `${ctx.method} ${ctx.path}: ` : '';
  const init: PartnerApiErrorInit = {
    status: null,
    code: (ctx.errorCode ?? (ctx.timedOut ? 'etimedout' : 'connection_error')).toLowerCase(),
    message: `${where}${ctx.timedOut ? 'timed out' : 'connection failed'} (${ctx.message})`,
    idempotencyKey: ctx.idempotencyKey,
    cause: ctx.cause,
  };
  return ctx.timedOut ? new PartnerTimeoutError(init) : new PartnerConnectionError(init);
}
