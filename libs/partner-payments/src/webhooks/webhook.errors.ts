import { HttpException, HttpStatus } from '@nestjs/common';
import { PartnerError } from '../errors/partner.errors';

/** Why a signature was refused; sent back in the 401 body so the sender can tell what is wrong. */
export type PartnerSignatureFailureReason =
  'missing_header' | 'not_hex' | 'odd_length' | 'wrong_length' | 'mismatch' | 'no_secret_configured';

/**
 * Base of the errors thrown by the webhook pipeline (PartnerWebhookIngestService.handle and the guard).
 * Each knows its HTTP status; `toHttpException()` gives the answer the ready-made controller sends,
 * so an app with its own route can `throw e.toHttpException()`.
 */
export abstract class PartnerWebhookError extends PartnerError {
  abstract readonly status: number;

  /** JSON body of the HTTP answer: { statusCode, error, code, message, ...extra }. Never a secret. */
  toResponseBody(): Record<string, unknown> {
    return { statusCode: this.status, code: this.code, message: this.message };
  }

  toHttpException(): HttpException {
    return new HttpException(this.toResponseBody(), this.status, { cause: this });
  }
}

/** 401: missing, malformed or wrong x-signature-sha256 (spec 6.1.3). Never a 500. */
export class PartnerWebhookSignatureError extends PartnerWebhookError {
  readonly code = 'invalid_signature';
  readonly status = HttpStatus.UNAUTHORIZED;

  constructor(
    readonly reason: PartnerSignatureFailureReason,
    message: string,
  ) {
    super(message);
  }

  override toResponseBody(): Record<string, unknown> {
    return { ...super.toResponseBody(), error: 'Unauthorized', reason: this.reason };
  }
}

/** 400: the signature is valid but the body is not JSON or not an object with `event`. */
export class PartnerWebhookPayloadError extends PartnerWebhookError {
  readonly code = 'invalid_payload';
  readonly status = HttpStatus.BAD_REQUEST;

  constructor(message: string) {
    super(message);
  }

  override toResponseBody(): Record<string, unknown> {
    return { ...super.toResponseBody(), error: 'Bad Request' };
  }
}

/** 413: the body is larger than `webhooks.maxBodyBytes` (default 1 MB). */
export class PartnerWebhookBodyTooLargeError extends PartnerWebhookError {
  readonly code = 'payload_too_large';
  readonly status = HttpStatus.PAYLOAD_TOO_LARGE;

  constructor(
    readonly limitBytes: number,
    readonly actualBytes: number | null,
  ) {
    super(`Webhook body exceeds ${limitBytes} bytes (webhooks.maxBodyBytes)`);
  }

  override toResponseBody(): Record<string, unknown> {
    return { ...super.toResponseBody(), error: 'Payload Too Large', limitBytes: this.limitBytes };
  }
}

/** 500: the host app is set up so that webhooks cannot be verified (no raw body, no emitter). */
export class PartnerWebhookConfigurationError extends PartnerWebhookError {
  readonly code = 'webhook_configuration';
  readonly status = HttpStatus.INTERNAL_SERVER_ERROR;

  constructor(message: string) {
    super(message);
  }

  override toResponseBody(): Record<string, unknown> {
    return { ...super.toResponseBody(), error: 'Internal Server Error' };
  }
}

/**
 * 500: the inbox could not record the event (its store threw), so it was NOT acknowledged.
 * spec 6.1.4: the partner does not retry, so the event is lost unless someone replays it; a 5xx at
 * least shows in the partner's delivery log, where a 2xx would hide the loss. Logged as an error
 * with the event name and id (never the body).
 */
export class PartnerWebhookInboxError extends PartnerWebhookError {
  readonly code = 'inbox_unavailable';
  readonly status = HttpStatus.INTERNAL_SERVER_ERROR;

  constructor(
    readonly eventId: string,
    readonly eventName: string,
    options?: { cause?: unknown },
  ) {
    super(`Partner webhook ${eventName} (${eventId}) could not be recorded in the inbox; not acknowledged`);
    if (options?.cause !== undefined) Object.defineProperty(this, 'cause', { value: options.cause });
  }

  override toResponseBody(): Record<string, unknown> {
    return { ...super.toResponseBody(), error: 'Internal Server Error', eventId: this.eventId };
  }
}

export const RAW_BODY_MISSING_MESSAGE =
  'Partner webhook: the raw request body is not available, so the signature cannot be verified ' +
  '(spec 6.1.3 forbids verifying re-serialised JSON). Create the app with ' +
  'NestFactory.create(AppModule, { rawBody: true }), or pass the exact received bytes to ' +
  'PartnerWebhookIngestService.handle(rawBody, headers).';
