import type { Response } from 'express';
import type { FieldError } from '../resources/metadata.rules';

/** Standard error shape (spec 7.1): `{ code, message, statusCode, ... }`. */
export function sendError(
  res: Response,
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): void {
  res.status(status).json({ code, message, statusCode: status, ...extra });
}

/**
 * An answer of the partner's gateway or of its auth function, not of the API behind the gateway
 * (evidence §11 N3, N4 [T3raw auth/02-success]): none of the app's headers (security set,
 * x-api-version, etag), `content-type: application/json` without a charset, and
 * `x-amzn-errortype` when given.
 */
export function sendPlainJson(res: Response, status: number, body: unknown, errorType?: string): void {
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  if (errorType) res.setHeader('x-amzn-errortype', errorType);
  res.setHeader('content-type', 'application/json');
  res.status(status).end(JSON.stringify(body));
}

/** spec 5.6 / 7.5: unmatched or malformed routes answer 403 invalid_request (the gateway's answer). */
export function sendRouteNotMatched(res: Response): void {
  sendPlainJson(res, 403, {
    code: 'invalid_request',
    message: 'The request could not be matched to a valid route',
  });
}

/** Validation error, observed form `{ code, message, errors[] }` (spec 7.1), each error naming its field. */
export function sendValidation(res: Response, errors: FieldError[], message?: string): void {
  res.status(400).json({
    code: 'validation_error',
    message: message ?? errors.map((e) => `${e.field}: ${e.message}`).join('; '),
    errors,
  });
}

export const sendNotFound = (res: Response, what: string): void =>
  sendError(res, 404, 'not_found', `${what} not found`);

/** One issue of the partner's Zod-shaped 400: `path` joined with dots (`associated_persons.0.email`). */
export interface ZodIssue {
  path: string;
  message: string;
  code: string;
}

/**
 * evidence §2 shape Z: `{ error: "Invalid request data", details: [{ path, message, code }] }`, the
 * 400 of POST /v1/users, PUT /v1/users/{id} and a malformed user id [T3r DRIFT-6, 18, 20][T2s README].
 */
export function sendZodValidation(res: Response, issues: ZodIssue[]): void {
  res.status(400).json({ error: 'Invalid request data', details: issues });
}

/** evidence §2 shape F: a flat `{ code, message }` (e.g. GET /v1/users/{id} unknown id → 404) [T2s README]. */
export function sendFlatError(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ code, message });
}

/**
 * evidence §2 shape B, the partner's typed errors: `{ error: { code: SCREAMING_SNAKE, message, details } }`
 * (e.g. 409 IDEMPOTENCY_CONFLICT and the recipients' list errors, with `details: {}`).
 */
export function sendTypedError(
  res: Response,
  status: number,
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): void {
  res.status(status).json({ error: { code, message, details } });
}
