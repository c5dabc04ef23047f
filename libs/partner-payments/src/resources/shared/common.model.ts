import type { PartnerResponseMeta } from '../../http/http.types';

/** A string union that still accepts values the contract does not name (autocompletion kept). */
export type PartnerOpenString<T extends string> = T | (string & Record<never, never>);

/** spec 2.3: address of a recipient or a bank. */
export interface PartnerAddress {
  street_name?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  /** ISO-2 (provider-facts "Recipients"). */
  country?: string;
  [key: string]: unknown;
}

/** One page of an offset-paged list, normalised (provider-facts: users, RFIs). */
export interface PartnerPage<T> {
  data: T[];
  total: number | null;
  limit: number | null;
  offset: number | null;
  hasMore: boolean;
}

export interface PartnerOffsetPageParams {
  /** At most 100 (provider-facts: above it the server answers a bare 500). */
  limit?: number;
  offset?: number;
}

/** Options every resource call accepts; they override the module options for this call only. */
export interface PartnerCallOptions {
  /** Idempotency-Key to send; wins over the generated one (use your own to make retries across restarts safe). */
  idempotencyKey?: string;
  /** X-Api-Version for this call. */
  apiVersion?: string;
  timeoutMs?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
  /** Receives the response metadata (status, requestId, idempotency key, version, attempts). */
  onMeta?: (meta: PartnerResponseMeta) => void;
}
