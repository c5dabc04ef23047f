import type { PartnerApiArea } from './http.types';

export interface VersionHeaderInput {
  area: PartnerApiArea;
  perCallVersion?: string;
  versionHeaderRequired?: boolean;
  apiVersion: string;
  rfiVersion: string;
  sendVersionHeader: 'always' | 'until-pinned';
  /** The version the account is known to be pinned to, or null. */
  pinnedVersion: string | null;
}

/**
 * Which X-Api-Version to send, or null for none (spec 9.2; provider-facts: the server resolves
 * header → pin → older baseline, so send until pinned; RFI routes exist only under 2026-06-01).
 */
export function resolveVersionHeader(input: VersionHeaderInput): string | null {
  if (input.perCallVersion) return input.perCallVersion;
  if (input.area === 'rfis') return input.rfiVersion;
  if (input.versionHeaderRequired || input.sendVersionHeader === 'always') return input.apiVersion;
  return input.pinnedVersion === input.apiVersion ? null : input.apiVersion;
}

export interface HeaderInput {
  apiKey: string;
  /** Bearer token; null for POST /auth (spec 4.1: x-api-key only). */
  accessToken: string | null;
  apiVersion: string | null;
  idempotencyKey: string | null;
  /** For JSON bodies; multipart sets its own with the boundary. */
  contentType?: string;
  extra?: Record<string, string>;
}

const RESERVED = new Set(['x-api-key', 'authorization', 'x-api-version', 'idempotency-key']);

/** The headers of one attempt (spec 4 "Common headers"). Extra headers never override the reserved ones. */
export function buildPartnerHeaders(input: HeaderInput): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const extra = input.extra;
  if (extra !== undefined)
    for (const k of Object.keys(extra)) if (!RESERVED.has(k.toLowerCase())) headers[k] = extra[k];
  if (input.contentType) headers['Content-Type'] = input.contentType;
  headers['x-api-key'] = input.apiKey;
  if (input.accessToken !== null) headers['Authorization'] = `Bearer ${input.accessToken}`;
  if (input.apiVersion !== null) headers['X-Api-Version'] = input.apiVersion;
  if (input.idempotencyKey !== null) headers['Idempotency-Key'] = input.idempotencyKey;
  return headers;
}
