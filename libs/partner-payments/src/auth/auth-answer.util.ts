import { PartnerAuthenticationError } from '../errors/partner-api.errors';

/** spec 4.1: { message, data: { access_token, expires_in, token_type } }. */
interface AuthResponseBody {
  message?: string;
  data?: { access_token?: unknown; expires_in?: unknown; token_type?: unknown };
}

/** What a 2xx of POST /auth gives: the token, its lifetime, and how early to refresh it. */
export interface AuthAnswer {
  accessToken: string;
  lifetimeS: number;
  /** Refresh this long before expiry: the configured skew, but at most half the lifetime. */
  skewMs: number;
}

/** Reads a 2xx answer of POST /auth; one without a token is a PartnerAuthenticationError. */
export function readAuthAnswer(body: unknown, tokenRefreshSkewSeconds: number): AuthAnswer {
  const b = (typeof body === 'object' && body !== null ? body : {}) as AuthResponseBody;
  const accessToken = b.data?.access_token;
  const expiresIn = Number(b.data?.expires_in);
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new PartnerAuthenticationError({
      status: 200,
      code: 'invalid_auth_response',
      message: 'POST /auth answered without data.access_token',
    });
  }
  // provider-facts: documented 3600, seen 86400: read it. A missing value gets a cautious 5 minutes
  // beyond the skew rather than an assumed hour.
  const lifetimeS = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : tokenRefreshSkewSeconds + 300;
  // A skew longer than the lifetime would make every call re-authenticate: keep half the lifetime usable.
  const skewMs = Math.min(tokenRefreshSkewSeconds * 1000, (lifetimeS * 1000) / 2);
  return { accessToken, lifetimeS, skewMs };
}
