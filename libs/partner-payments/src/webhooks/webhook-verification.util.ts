import { reportWebhookRefusal } from '../observability/webhook-instrumentation.util';
import { PARTNER_SIGNATURE_HEADER, redactSignature, verifyPartnerSignature } from './signature.util';
import type { PartnerWebhookConfig } from './webhook-options.util';
import {
  PartnerWebhookBodyTooLargeError,
  PartnerWebhookConfigurationError,
  PartnerWebhookSignatureError,
  RAW_BODY_MISSING_MESSAGE,
} from './webhook.errors';

/** Request headers as Node/Express give them (names in any case). */
export type PartnerWebhookHeaders = Record<string, string | string[] | undefined>;

type VerificationConfig = Pick<PartnerWebhookConfig, 'secrets' | 'maxBodyBytes' | 'logger' | 'onEvent'>;

/** Reports a delivery refused before parsing (hook and span); returns the error to throw. */
export function refuseWebhook<E extends Error>(config: VerificationConfig, error: E): E {
  reportWebhookRefusal(config.onEvent, error);
  return error;
}

/**
 * Checks the raw bytes a programmatic caller passed: present (never re-serialised JSON, spec 6.1.3)
 * and within maxBodyBytes. The guard gets the same answers from readPartnerRawBody while reading.
 */
export function assertWebhookBody(
  config: VerificationConfig,
  rawBody: Buffer | string | undefined | null,
): asserts rawBody is Buffer | string {
  if (!Buffer.isBuffer(rawBody) && typeof rawBody !== 'string') {
    config.logger.error(RAW_BODY_MISSING_MESSAGE);
    throw refuseWebhook(config, new PartnerWebhookConfigurationError(RAW_BODY_MISSING_MESSAGE));
  }
  const size = Buffer.isBuffer(rawBody) ? rawBody.length : Buffer.byteLength(rawBody, 'utf8');
  if (size > config.maxBodyBytes)
    throw refuseWebhook(config, new PartnerWebhookBodyTooLargeError(config.maxBodyBytes, size));
}

/** Verifies the signature header against the raw bytes (spec 6.1.3); throws PartnerWebhookSignatureError (401). */
export function verifyWebhookSignature(
  config: VerificationConfig,
  rawBody: Buffer | string,
  headers: PartnerWebhookHeaders,
): void {
  const header = headerValue(headers, PARTNER_SIGNATURE_HEADER);
  const result = verifyPartnerSignature(rawBody, header, config.secrets);
  if (result.ok) return;
  config.logger.warn(
    `Partner webhook refused (401, ${result.reason}): ${result.message}; header ${redactSignature(header)}`,
  );
  throw refuseWebhook(config, new PartnerWebhookSignatureError(result.reason, result.message));
}

/** Case-insensitive header lookup (Express lower-cases, hand-built header objects may not). */
export function headerValue(headers: PartnerWebhookHeaders, name: string): string | string[] | undefined {
  if (headers[name] !== undefined) return headers[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) return headers[key];
  return undefined;
}
