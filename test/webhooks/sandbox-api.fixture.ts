/** Calls the sandbox's partner API directly (raw HTTP), so webhook suites depend only on the pipeline. */
import type { PartnerSandbox } from '@partner-payments/testing';
import { randomUUID } from 'node:crypto';
import { individual } from '../setup/partner-inputs.fixture';

export type Json = Record<string, unknown>;

/** A minimal partner API caller: POST /auth once, then x-api-key + bearer + Idempotency-Key. */
export async function partnerApi(
  sandbox: PartnerSandbox,
): Promise<(method: string, path: string, body?: Json) => Promise<Json>> {
  const base = sandbox.sandboxBaseUrl;
  const key = { 'x-api-key': sandbox.credentials.apiKey, 'content-type': 'application/json' };
  const auth = await fetch(`${base}/auth`, {
    method: 'POST',
    headers: key,
    body: JSON.stringify({ client_id: sandbox.credentials.clientId, password: sandbox.credentials.password }),
  });
  const token = ((await auth.json()) as { data: { access_token: string } }).data.access_token;
  return async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...key,
        authorization: `Bearer ${token}`,
        'idempotency-key': randomUUID(),
        'x-api-version': '2026-04-14',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Json;
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/**
 * A user created over the partner API with the partner's flat fields, then verified the way the
 * partner's staff would (the control API): the partner's sandbox stops in REVIEW (evidence §3).
 */
export async function createVerifiedUser(
  sandbox: PartnerSandbox,
  api: (method: string, path: string, body?: Json) => Promise<Json>,
  body: Json = { ...individual() },
): Promise<string> {
  const user = await api('POST', '/v1/users', body);
  const id = String(user.id);
  await sandbox.control.setUserVerificationOutcome(id, 'approved');
  return id;
}
