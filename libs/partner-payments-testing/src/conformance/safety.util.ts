/**
 * Which probes may run where, and redaction of everything the report prints.
 * spec 1: the sandbox base address is `{base_url}/sandbox`; anything else is production.
 */

export interface WritePolicy {
  environment: 'sandbox' | 'production';
  writes: boolean;
  /** Why write probes do not run, said in the report. */
  readOnlyReason?: string;
}

/** True when the base URL's path ends in `/sandbox` (spec 1). */
export function isSandboxBaseUrl(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  return /\/sandbox\/?$/.test(url.pathname);
}

/**
 * A production URL is read-only whatever the caller says: an explicit `environment: 'sandbox'`
 * cannot unlock writes against it, so a mistyped base can never create data at the partner.
 */
export function writePolicy(
  baseUrl: string,
  allowWrites: boolean,
  environment?: 'sandbox' | 'production',
): WritePolicy {
  const urlIsSandbox = isSandboxBaseUrl(baseUrl);
  const env = environment === 'production' || !urlIsSandbox ? 'production' : 'sandbox';
  if (env === 'production') {
    const why = urlIsSandbox
      ? 'environment is production'
      : 'the base URL is not a sandbox base (spec 1: {base_url}/sandbox)';
    return {
      environment: env,
      writes: false,
      readOnlyReason: `production: read-only probes only (${why}); write probes refused${allowWrites ? ' despite --allow-writes' : ''}`,
    };
  }
  if (!allowWrites) {
    return {
      environment: env,
      writes: false,
      readOnlyReason: 'read-only: write probes need --allow-writes (allowWrites: true)',
    };
  }
  return { environment: env, writes: true };
}

/** Keys whose values are secrets or account data wherever they appear. */
const SECRET_KEYS =
  /"(access_token|password|api_key|apiKey|x-api-key|authorization|account_number|routing_number|clabe|ssn|ein|document_number|doc_number|token)"\s*:\s*"[^"]*"/gi;

/** A JWT (the partner's bearer tokens are, evidence §11 N8), also one the run did not issue. */
const JWT = /\beyJ[\w-]*\.[\w-]+\.[\w-]*/g;

/** An IBAN, written whole or in groups of 4 (`ES91 2100 0418 ...`). */
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;

/** A word of letters and digits not inside an id (a UUID's parts are joined by `-`). */
const WORD = /(?<![0-9A-Za-z_-])[0-9A-Za-z]+(?![0-9A-Za-z_-])/g;

const last4 = (value: string) => `****${value.replace(/ /g, '').slice(-4)}`;

/**
 * Redacts the run's secrets (api key, password, bearer tokens), any JWT, values under secret-looking keys,
 * IBANs, and any word holding 6 or more digits (account numbers with or without letters, CLABEs,
 * SSNs), keeping the last 4: an error message that echoes an account number prints `****1234`.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  out = out.replace(JWT, '[redacted]');
  out = out.replace(SECRET_KEYS, (_m, key: string) => `"${key}":"[redacted]"`);
  out = out.replace(IBAN, last4);
  return out.replace(WORD, (word) => ((word.match(/\d/g)?.length ?? 0) >= 6 ? last4(word) : word));
}
