import { randomUUID } from 'node:crypto';
import { printableUrl } from '../server/url-mask.util';

/** A refusal the CLI reports as it is (its message names the call and the partner's answer). */
export class SandboxCliError extends Error {}

export interface SandboxCliCredentials {
  apiKey: string;
  clientId: string;
  password: string;
}

/** Every wait on the sandbox is bounded: a sandbox that stops answering never hangs the CLI. */
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * The partner API of a running sandbox, called as an app calls it (spec 4.1: x-api-key and a
 * bearer token; spec 4.7: an Idempotency-Key on every create), so `trigger` makes its data through
 * the same routes, rules and events as the app under test.
 */
export class SandboxApiClient {
  private token: string | undefined;

  /** Where the partner routes are: the sandbox stage `{base_url}/sandbox` (spec 1). */
  private readonly apiBase: string;

  constructor(
    baseUrl: string,
    private readonly credentials: SandboxCliCredentials,
  ) {
    // The sandbox serves the partner's routes under /sandbox only, as the partner does (evidence §11
    // N1); the control API stays at the root, so --base-url may name either.
    const root = baseUrl.replace(/\/+$/, '').replace(/\/sandbox$/, '');
    this.apiBase = `${root}/sandbox`;
  }

  private async login(): Promise<string> {
    if (this.token) return this.token;
    const answer = await this.send('POST', '/auth', {
      client_id: this.credentials.clientId,
      password: this.credentials.password,
    });
    const token = (answer as { data?: { access_token?: unknown } }).data?.access_token;
    if (typeof token !== 'string') throw new SandboxCliError('POST /auth answered no access_token');
    this.token = token;
    return token;
  }

  async call<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
    return (await this.send(method, path, body, await this.login())) as T;
  }

  private async send(method: string, path: string, body: unknown, token?: string): Promise<unknown> {
    const headers: Record<string, string> = { 'x-api-key': this.credentials.apiKey };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method === 'POST' && path !== '/auth') headers['idempotency-key'] = randomUUID();
    const url = `${this.apiBase}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as Error).cause instanceof Error ? ((error as Error).cause as Error) : error;
      throw new SandboxCliError(
        `${method} ${path}: no answer from ${printableUrl(this.apiBase)} (${(cause as Error).message}); is the sandbox running there?`,
      );
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { raw: text };
    }
    if (!response.ok) {
      const message = (parsed as { message?: unknown }).message;
      throw new SandboxCliError(
        `${method} ${path} answered ${response.status}${typeof message === 'string' ? `: ${message}` : ''}` +
          (response.status === 401 && path === '/auth'
            ? ' (give the credentials the sandbox was started with: --api-key, --client-id, --password or their PARTNER_SANDBOX_* variables)'
            : ''),
      );
    }
    return parsed;
  }
}
