/**
 * What the module tells a host app's metrics, besides the per-attempt PartnerHttpEvent: token
 * refreshes, rate-limiter waits and webhook outcomes. Plain callbacks, so the library depends on no
 * metrics library (the reference app wires them to prom-client). None carries a secret, a body, a
 * header or a token; identifiers only where an operator needs them (event ids).
 */
import type { PartnerSignatureFailureReason } from '../webhooks/webhook.errors';

/**
 * A token refresh that finished: POST /auth with its retries (getToken(), refresh(), the background
 * refresh), or the one attempt of a call's token step (the call retries it within its own attempts).
 */
export interface PartnerTokenEvent {
  type: 'refreshed' | 'failed';
  /** From the refresh's start to its outcome, retries and backoff included. */
  durationMs: number;
  /**
   * For 'failed': 'unavailable' when the partner did not answer usefully (502/503/504, 429,
   * timeout, reset: try again later), 'refused' when it refused our credentials (401, another 4xx,
   * or the 500 it answers for an unknown client_id, evidence §1) or answered without a token.
   */
  reason?: 'unavailable' | 'refused';
  /** HTTP status of the last answer, null for a network failure. For 'failed'. */
  status?: number | null;
}

/** A call that waited for the client-side rate limiter before being sent (waits of 1 ms or more). */
export interface PartnerRateLimitWaitEvent {
  waitMs: number;
  method: string;
  /** Route template, e.g. '/v1/payouts/{payout_id}'. */
  route: string;
}

/** Why a delivery was refused (its HTTP answer in brackets). */
export type PartnerWebhookRefusalReason =
  /** 401: the signature header is missing, malformed or wrong (spec 6.1.3). */
  | PartnerSignatureFailureReason
  /** 400: authentic, but not JSON or without `event`. */
  | 'invalid_payload'
  /** 413: larger than webhooks.maxBodyBytes. */
  | 'payload_too_large'
  /** 500: the inbox store threw; not acknowledged. */
  | 'inbox_unavailable'
  /** 500: the raw body was not available (a configuration error of the host app). */
  | 'no_raw_body';

/** A delivery's answer, or the end of one processing run of a stored event. */
export type PartnerWebhookObservation =
  | {
      type: 'received';
      /** accepted: new known event; duplicate: event_id already in the inbox; unknown: new event of an unknown type. */
      outcome: 'accepted' | 'duplicate' | 'unknown';
      eventName: string;
      eventId: string;
    }
  | {
      type: 'received';
      outcome: 'refused';
      reason: PartnerWebhookRefusalReason;
      /** Known once the body was parsed (inbox_unavailable); absent before. */
      eventName?: string;
      eventId?: string;
    }
  | {
      type: 'processed';
      /** processed: handlers ran and the entry is marked; failed: a handler (or the mark) threw; skipped: another run had it. */
      outcome: 'processed' | 'failed' | 'skipped';
      eventName: string;
      eventId: string;
      durationMs: number;
      /** true when run from the inbox (processPending / redeliver), false right after receipt. */
      redelivery: boolean;
    }
  | {
      /**
       * A delivery waited for room in the processing backlog before it was recorded
       * (`webhooks.batching.maxBacklog`): the handlers are not keeping up with intake.
       * `timedOut`: no room came within `maxBacklogWaitMs`; it was recorded anyway.
       */
      type: 'backpressure';
      waitedMs: number;
      timedOut: boolean;
      eventName: string;
      eventId: string;
    };

/** Calls a host app's listener; its bug must never fail a payment call or a delivery. */
export function notifyListener<E>(listener: ((event: E) => void) | null | undefined, event: E): void {
  if (!listener) return;
  try {
    listener(event);
  } catch {
    // Swallowed on purpose (documented on the options): observability must not change outcomes.
  }
}
