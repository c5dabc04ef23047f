/**
 * One run's connection to the partner (or a simulator): credentials, the bearer token, pacing, and
 * the bookkeeping of what the run created. The fixtures probes share live in conformance-fixtures.service.ts.
 */
import { randomUUID } from 'node:crypto';
import type { ConformanceOptions, Observation, ProbeRequest } from './probe.types';
import type { CreatedResource } from './report.types';
import type { ConformanceTarget } from './explain.util';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Thrown by a fixture a probe cannot have here: the probe is skipped with this reason. */
export class ProbeSkipped extends Error {}

/** Why nothing the kit creates can be deleted (named beside each created resource). */
export const NO_DELETE =
  'not deletable: the partner has no DELETE for users or recipients (evidence §4 [T3r DRIFT-39]); tagged metadata.conformance_run';

/**
 * A JWT with the first character of its signature changed, as the partner's captured attack did
 * (evidence §11 N8 [T3raw security/jwt-attack-suite/02]); any other token with its last character changed.
 */
export function tamperSignature(token: string): string {
  const at = token.lastIndexOf('.') + 1;
  const index = at > 0 && at < token.length ? at : token.length - 1;
  return `${token.slice(0, index)}${token[index] === 'A' ? 'B' : 'A'}${token.slice(index + 1)}`;
}

export class ConformanceContext {
  readonly runId = `conformance-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}-${randomUUID().slice(0, 8)}`;
  readonly createdResources: CreatedResource[] = [];
  readonly settleMs: number;
  /** Every bearer token issued during the run (redacted from the report). */
  readonly tokens: string[] = [];
  private token: string | undefined;
  private readonly once = new Map<string, Promise<unknown>>();

  constructor(
    protected readonly options: ConformanceOptions,
    readonly writesAllowed: boolean,
    readonly target: ConformanceTarget,
  ) {
    this.settleMs = options.settleMs ?? 15000;
  }

  private url(path: string): string {
    // spec 1: paths are relative to the chosen base; keep its /sandbox prefix (evidence §1).
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  otherStageUrl(path: string): string {
    const base = this.options.baseUrl.replace(/\/+$/, '');
    if (!/\/sandbox$/.test(base))
      throw new ProbeSkipped('needs a sandbox base URL ({base_url}/sandbox) to reach the other stage');
    return `${base.replace(/\/sandbox$/, '')}${path}`;
  }

  authBody() {
    return { client_id: this.options.credentials.clientId, password: this.options.credentials.password };
  }

  async login(): Promise<string> {
    if (this.token) return this.token;
    const answer = await this.send({
      method: 'POST',
      path: '/auth',
      auth: 'api-key-only',
      body: this.authBody(),
    });
    const data = (answer.body as { data?: { access_token?: unknown } } | undefined)?.data;
    if (answer.status !== 200 || typeof data?.access_token !== 'string') {
      throw new Error(`POST /auth answered ${answer.status}: cannot authenticate with these credentials`);
    }
    this.token = data.access_token;
    this.tokens.push(this.token);
    return this.token;
  }

  async send(request: ProbeRequest): Promise<Observation> {
    const auth = request.auth ?? 'full';
    // A handed-out link may point anywhere (a presigned object-store URL): never with our credentials.
    if (
      request.url &&
      auth !== 'none' &&
      new URL(request.url).origin !== new URL(this.options.baseUrl).origin
    ) {
      throw new Error(
        "refused: partner credentials go only to the base URL's origin (send a link with auth 'none')",
      );
    }
    const headers: Record<string, string> = {};
    if (auth !== 'bearer-only' && auth !== 'none') headers['x-api-key'] = this.options.credentials.apiKey;
    if (auth === 'full' || auth === 'bearer-only') {
      headers.authorization = `Bearer ${request.bearer ?? (await this.login())}`;
    }
    if (auth === 'bad-bearer') headers.authorization = `Bearer not-a-token-${randomUUID()}`;
    if (auth === 'tampered-bearer') headers.authorization = `Bearer ${tamperSignature(await this.login())}`;
    if (request.version) headers['x-api-version'] = request.version;
    if (request.idempotencyKey) {
      headers['idempotency-key'] = request.idempotencyKey === 'fresh' ? randomUUID() : request.idempotencyKey;
    }
    let body: string | FormData | undefined;
    if (request.form) body = request.form;
    else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    const response = await this.fetchPaced(request.url ?? this.url(request.path), {
      method: request.method,
      headers,
      body,
    });
    const answeredAt = performance.timeOrigin + performance.now();
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    let parsed: unknown;
    let json = false;
    try {
      parsed = text ? JSON.parse(text) : undefined;
      json = text.length > 0;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, json, bytes, answeredAt };
  }

  private lastRequestAt = 0;

  /**
   * evidence §1 [T1 REVISION-DOCS §3.3]: 20 requests/s per account. Against the partner the kit keeps
   * under it (one request per 60 ms); a 429 anywhere is waited out once (Retry-After, at most 5 s)
   * and the same request, Idempotency-Key included, is sent again.
   */
  private async fetchPaced(url: string, init: RequestInit): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const wait = this.target === 'partner' ? this.lastRequestAt + 60 - Date.now() : 0;
      if (wait > 0) await sleep(wait);
      this.lastRequestAt = Date.now();
      const response = await fetch(url, {
        ...init,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15000),
      });
      if (response.status !== 429 || attempt > 0) return response;
      await response.body?.cancel();
      await sleep(Math.min(Number(response.headers.get('retry-after')) || 1, 5) * 1000);
    }
  }

  created(kind: string, id: string, probe: string, cleanup = NO_DELETE): void {
    this.createdResources.push({ kind, id, probe, cleanup });
  }

  /** Makes `value` the run's `name` fixture unless one exists (a probe created it already). */
  provide(name: string, value: unknown): void {
    if (!this.once.has(name)) this.once.set(name, Promise.resolve(value));
  }

  /** Runs `make` once per run; a second caller gets the same promise (and the same skip or error). */
  protected shared<T>(name: string, make: () => Promise<T>): Promise<T> {
    let value = this.once.get(name) as Promise<T> | undefined;
    if (!value) {
      value = make();
      this.once.set(name, value);
    }
    return value;
  }

  protected requireWrites(what: string): void {
    if (!this.writesAllowed) throw new ProbeSkipped(`needs ${what}, which a read-only run does not create`);
  }

  /** Expires the token through the hook and answers the now-expired token. */
  async expireToken(): Promise<string> {
    const expire = this.options.hooks?.expireTokens;
    if (!expire)
      throw new ProbeSkipped("needs an expired token (the partner's last 3600 s; no hook to expire them)");
    const token = await this.login();
    await expire();
    this.token = undefined;
    return token;
  }
}
