import { PartnerError, type PartnerFieldError } from './partner.errors';

/** One refused item of a PATCH /v1/rfis/{rfi_id}/items call (spec 4.3 rule 3, 7.1 per-item shape). */
export interface PartnerItemError {
  itemId: string;
  message: string;
}

/** Everything an API error carries besides its message; built by createPartnerApiError(). */
export interface PartnerApiErrorInit {
  /** HTTP status; null when no response arrived (connection errors, timeouts). */
  status: number | null;
  /** Lowercase snake code from the body ('validation_error'), or one derived from the status. */
  code: string;
  message: string;
  details?: unknown;
  /** The response body exactly as parsed (JSON value or text), for debugging. */
  body?: unknown;
  requestId?: string | null;
  idempotencyKey?: string | null;
  fieldErrors?: PartnerFieldError[];
  itemErrors?: PartnerItemError[];
  retryAfterMs?: number | null;
  cause?: unknown;
}

/**
 * Base of every error the partner's API (or the network on the way to it) produced.
 * Branch on the subclass (they follow the HTTP status, spec 7.1: "clients branch on the HTTP
 * status, not on a fixed body shape"), or on `status`/`code`.
 */
export class PartnerApiError extends PartnerError {
  readonly code: string;
  readonly status: number | null;
  readonly details: unknown;
  readonly body: unknown;
  readonly requestId: string | null;
  readonly idempotencyKey: string | null;
  /** Field problems normalised from every validation body shape (spec 7.1, provider-facts). */
  readonly fieldErrors: PartnerFieldError[];
  /** Per-item answer problems (spec 7.1 per-item shape); empty for other errors. */
  readonly itemErrors: PartnerItemError[];

  constructor(init: PartnerApiErrorInit) {
    super(init.message);
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.body = init.body;
    this.requestId = init.requestId ?? null;
    this.idempotencyKey = init.idempotencyKey ?? null;
    this.fieldErrors = init.fieldErrors ?? [];
    this.itemErrors = init.itemErrors ?? [];
    if (init.cause !== undefined)
      Object.defineProperty(this, 'cause', { value: init.cause, enumerable: false });
  }
}

/** 401: credentials refused on POST /auth, or a bearer token missing/invalid/expired (spec 5.7). */
export class PartnerAuthenticationError extends PartnerApiError {}

/** 403: not yours, or an unmatched route (spec 7.5: 403 invalid_request). */
export class PartnerPermissionError extends PartnerApiError {}

/** 400/422: the request body or parameters were refused; see `fieldErrors`. */
export class PartnerValidationError extends PartnerApiError {}

/** The RFI answers were refused item by item (spec 4.3 rule 3); see `itemErrors`. */
export class PartnerRfiAnswerError extends PartnerValidationError {}

/** 404: missing, another client's, or a withdrawn RFI (spec 3.2, 7.3). */
export class PartnerNotFoundError extends PartnerApiError {}

/** 409: a closed RFI (spec 7.3), a second virtual account for the same user and bank. */
export class PartnerConflictError extends PartnerApiError {}

/**
 * 409 IDEMPOTENCY_CONFLICT: the Idempotency-Key was already used with a different request body
 * (evidence §4 [T3r DRIFT-35]). This call created nothing and is never retried. Resend the original
 * body to get the original answer, or use a new key for a new request (`idempotencyKey` holds the
 * key that was reused).
 */
export class PartnerIdempotencyConflictError extends PartnerConflictError {}

/** 429: above the partner's rate limit (provider-facts: 20/s, bursts of 50). */
export class PartnerRateLimitError extends PartnerApiError {
  /** The server's Retry-After in milliseconds, when it sent one. */
  readonly retryAfterMs: number | null;
  constructor(init: PartnerApiErrorInit) {
    super(init);
    this.retryAfterMs = init.retryAfterMs ?? null;
  }
}

/**
 * 5xx: the partner failed (e.g. a bare 500 for GET /v1/users?limit above 100). Also a 2xx whose body
 * is not JSON (`code` 'non_json_response', `status` the 2xx): a gateway's page answered instead of
 * the partner (evidence §8: 200 with a Cloudflare 522 text or "Blocked").
 */
export class PartnerServerError extends PartnerApiError {}

/** No usable response: refused, reset, broken pipe, DNS. `code` is the errno ('econnreset'). */
export class PartnerConnectionError extends PartnerApiError {}

/** The per-attempt deadline elapsed (options.timeoutMs or the per-call override), for the whole attempt. */
export class PartnerTimeoutError extends PartnerConnectionError {}

/** The module options are unusable; thrown at boot, naming the field. */
export class PartnerConfigurationError extends PartnerError {
  readonly code = 'configuration';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`PartnerPaymentsModule option "${field}" ${message}`);
  }
}

/**
 * GET /v1/virtual-accounts/{id}/balance answered 400 because the account is not active yet: the
 * partner answers so while the account is activating (evidence §5 [D known-limitations]). Retry
 * after the account becomes active (read it with `virtualAccounts.get`); not a bug in the call.
 */
export class PartnerVirtualAccountNotActiveError extends PartnerValidationError {
  constructor(
    readonly virtualAccountId: string,
    init: PartnerApiErrorInit,
  ) {
    super({
      ...init,
      message: `Virtual account ${virtualAccountId} has no balance yet: the partner answers 400 while the account is activating (${init.message})`,
    });
  }
}

/**
 * A sandbox-only operation (e.g. simulate-deposit) was called on a client configured for the
 * production environment; refused before any I/O (the partner's production answers 403, evidence §5).
 */
export class PartnerSandboxOnlyOperationError extends PartnerError {
  readonly code = 'sandbox_only';
  constructor(readonly operation: string) {
    super(
      `${operation} exists only in the partner's sandbox; this client is configured with environment 'production', where the partner refuses it (403)`,
    );
  }
}

/**
 * An offset-paged list answered a page other than the one asked for (its `pagination.offset` is
 * not the `offset` sent): the partner did not read the paging parameter. Walking on would read
 * the same rows again, or never end, so the walk stops here instead (evidence §5 [T2s Common.cs]:
 * only the answer's paging fields were confirmed against the partner, not which parameter it reads).
 */
export class PartnerPagingError extends PartnerError {
  readonly code = 'paging_mismatch';
  constructor(
    readonly list: string,
    readonly requestedOffset: number,
    readonly answeredOffset: number,
  ) {
    super(
      `${list} answered the page at offset ${answeredOffset} when offset ${requestedOffset} was asked for; stopped rather than read rows twice`,
    );
  }
}
