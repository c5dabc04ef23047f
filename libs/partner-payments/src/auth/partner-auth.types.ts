/**
 * `client.auth`: what an app may do with the client's bearer token (spec 5). The module takes and
 * renews the token for every call itself; these are for a warm-up at start, a readiness check and a
 * forced renewal (e.g. after the credentials were rotated at the partner).
 */
export interface PartnerAuth {
  /**
   * A usable token: the held one, else one `POST /auth` shared with every concurrent caller (up to
   * `1 + maxRetries` attempts). A refused credential pair throws `PartnerAuthenticationError`.
   */
  getToken(): Promise<string>;
  /** Forces a new token (`POST /auth`, up to `1 + maxRetries` attempts); concurrent callers share it. */
  refresh(): Promise<string>;
  /** When the held token expires (ms since the epoch), or null when none is held. Never the token. */
  readonly expiresAt: number | null;
}
