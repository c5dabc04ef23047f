/**
 * One run's connection to the partner (or a simulator): credentials, the bearer token, and the
 * fixtures probes share (a user, a recipient, ...), each made once and named in the report.
 */
import { randomUUID } from 'node:crypto';
import type {
  ConformanceOptions,
  CreatedResource,
  Observation,
  ProbeContext,
  ProbeRequest,
} from './probe.types';
import type { ConformanceTarget } from './explain.util';
import { fixtureRecipient, fixtureUser } from './probe.fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Thrown by a fixture a probe cannot have here: the probe is skipped with this reason. */
export class ProbeSkipped extends Error {}

/** Why nothing the kit creates can be deleted (named beside each created resource). */
export const NO_DELETE =
  'not deletable: the partner has no DELETE for users or recipients (evidence §4 [T3r DRIFT-39]); tagged metadata.conformance_run';

export class ConformanceContext implements ProbeContext {
  readonly runId = `conformance-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}-${randomUUID().slice(0, 8)}`;
  readonly createdResources: CreatedResource[] = [];
  readonly settleMs: number;
  /** Every bearer token issued during the run (redacted from the report). */
  readonly tokens: string[] = [];
  private token: string | undefined;
  private readonly once = new Map<string, Promise<unknown>>();

  constructor(
    private readonly options: ConformanceOptions,
    readonly writesAllowed: boolean,
    readonly target: ConformanceTarget,
  ) {
    this.settleMs = options.settleMs ?? 15000;
  }

  private url(path: string): string {
    // spec 1: paths are relative to the chosen base; keep its /sandbox prefix (evidence §1).
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
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
    const headers: Record<string, string> = {};
    if (auth !== 'bearer-only' && auth !== 'none') headers['x-api-key'] = this.options.credentials.apiKey;
    if (auth === 'full' || auth === 'bearer-only') {
      headers.authorization = `Bearer ${request.bearer ?? (await this.login())}`;
    }
    if (auth === 'bad-bearer') headers.authorization = `Bearer not-a-token-${randomUUID()}`;
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
    const response = await this.fetchPaced(this.url(request.path), { method: request.method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    let json = false;
    try {
      parsed = text ? JSON.parse(text) : undefined;
      json = text.length > 0;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, json };
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
  private shared<T>(name: string, make: () => Promise<T>): Promise<T> {
    let value = this.once.get(name) as Promise<T> | undefined;
    if (!value) {
      value = make();
      this.once.set(name, value);
    }
    return value;
  }

  private requireWrites(what: string): void {
    if (!this.writesAllowed) throw new ProbeSkipped(`needs ${what}, which a read-only run does not create`);
  }

  user() {
    return this.shared('user', async () => {
      this.requireWrites('a user');
      return this.createUser('fixture:user');
    });
  }

  private async createUser(probe: string) {
    const idempotencyKey = randomUUID();
    const body = fixtureUser(this.runId);
    const answer = await this.send({ method: 'POST', path: '/v1/users', body, idempotencyKey });
    const record = (answer.body ?? {}) as Record<string, unknown>;
    // Tolerate `user_id` so one renamed field shows up in one probe, not in every probe after it.
    const id = record.id ?? record.user_id;
    if (answer.status !== 201 || typeof id !== 'string') {
      throw new Error(`fixture user: POST /v1/users answered ${answer.status}`);
    }
    this.created('user', id, probe);
    return { id, idempotencyKey, body };
  }

  recipient() {
    return this.shared('recipient', async () => {
      const user = await this.user();
      const idempotencyKey = randomUUID();
      const body = fixtureRecipient(user.id, this.runId);
      const answer = await this.send({ method: 'POST', path: '/v1/recipients', body, idempotencyKey });
      const id = (answer.body as { recipient_id?: unknown } | undefined)?.recipient_id;
      if (answer.status !== 201 || typeof id !== 'string') {
        throw new Error(`fixture recipient: POST /v1/recipients answered ${answer.status}`);
      }
      this.created('recipient', id, 'fixture:recipient');
      return { id, idempotencyKey, body };
    });
  }

  verifiedUser() {
    return this.shared('verifiedUser', async () => {
      if (this.options.verifiedUserId) return { id: this.options.verifiedUserId };
      const verify = this.options.hooks?.verifyUser;
      if (!verify) {
        throw new ProbeSkipped(
          'needs a VERIFIED user: pass --verified-user <id> (the partner verifies users by hand, evidence §3)',
        );
      }
      this.requireWrites('a VERIFIED user');
      const user = await this.createUser('fixture:verified-user');
      await verify(user.id);
      return { id: user.id };
    });
  }

  clientUuid() {
    return this.shared('clientUuid', async () => {
      const uuid = this.options.credentials.clientUuid;
      if (!uuid) throw new ProbeSkipped('needs your client UUID (PARTNER_CLIENT_UUID or --client-uuid)');
      return uuid;
    });
  }

  /** The run's virtual account at the first authorized bank, opened and credited when a hook can. */
  virtualAccount() {
    return this.shared('virtualAccount', async () => {
      const va = await this.createVirtualAccount(0, 'fixture:virtual-account');
      await this.options.hooks?.fundVirtualAccount?.(va.id);
      return va;
    });
  }

  /** The run's virtual account, known to be open and funded (only a hook can make it so). */
  activeVirtualAccount() {
    return this.shared('activeVirtualAccount', async () => {
      if (!this.options.hooks?.fundVirtualAccount) {
        throw new ProbeSkipped(
          "needs an open, funded virtual account: a new one stays activating until the partner's staff open it (evidence §5)",
        );
      }
      return this.virtualAccount();
    });
  }

  /** A second virtual account (the second authorized bank), left as the partner leaves a new one. */
  newVirtualAccount() {
    return this.shared('newVirtualAccount', () =>
      this.createVirtualAccount(1, 'fixture:new-virtual-account'),
    );
  }

  private async createVirtualAccount(
    bankIndex: number,
    probe: string,
  ): Promise<{ id: string; userId: string }> {
    const user = await this.verifiedUser();
    this.requireWrites('a virtual account');
    const config = await this.send({ method: 'GET', path: `/v1/clients/${await this.clientUuid()}` });
    const banks = (config.body as { data?: { authorizedBanks?: unknown } } | undefined)?.data
      ?.authorizedBanks;
    const bank = Array.isArray(banks) ? banks[bankIndex] : undefined;
    if (typeof bank !== 'string') {
      throw new ProbeSkipped(`needs ${bankIndex + 1} authorized bank(s) (spec 2.4 authorizedBanks)`);
    }
    const answer = await this.send({
      method: 'POST',
      path: '/v1/virtual-accounts',
      idempotencyKey: 'fresh',
      body: { user_id: user.id, type: 'US_BANK', bank, metadata: { conformance_run: this.runId } },
    });
    const record = (answer.body ?? {}) as Record<string, unknown>;
    const id = record.virtual_account_id ?? record.id;
    if (answer.status !== 201 || typeof id !== 'string') {
      throw new Error(`fixture virtual account: POST /v1/virtual-accounts answered ${answer.status}`);
    }
    this.created('virtual_account', id, probe, 'not deletable: no DELETE route is documented');
    return { id, userId: user.id };
  }

  /** A WIRE recipient of the VERIFIED user (a payout goes to a recipient of the account's user). */
  payee() {
    return this.shared('payee', async () => {
      const va = await this.virtualAccount();
      const body = fixtureRecipient(va.userId, this.runId);
      const answer = await this.send({
        method: 'POST',
        path: '/v1/recipients',
        body,
        idempotencyKey: 'fresh',
      });
      const id = (answer.body as { recipient_id?: unknown } | undefined)?.recipient_id;
      if (answer.status !== 201 || typeof id !== 'string') {
        throw new Error(`fixture payee: POST /v1/recipients answered ${answer.status}`);
      }
      this.created('recipient', id, 'fixture:payee');
      return { id };
    });
  }

  payout() {
    return this.shared('payout', async () => {
      const va = await this.activeVirtualAccount();
      const payee = await this.payee();
      const answer = await this.send({
        method: 'POST',
        path: `/v1/virtual-accounts/${va.id}/payout`,
        idempotencyKey: 'fresh',
        body: { recipient_id: payee.id, amount: '10.00', currency: 'USD' },
      });
      const id = (answer.body as { id?: unknown } | undefined)?.id;
      if (answer.status !== 201 || typeof id !== 'string') {
        throw new ProbeSkipped(`no payout to read: create answered ${answer.status} (funds not usable?)`);
      }
      this.created('payout', id, 'fixture:payout', 'not cancellable through the API');
      return { id };
    });
  }

  rfiIn(status: 'resolved' | 'withdrawn') {
    return this.shared(`rfi:${status}`, async () => {
      const { seedRfi, setRfiStatus } = this.options.hooks ?? {};
      if (!seedRfi || !setRfiStatus)
        throw new ProbeSkipped(`needs an RFI that is ${status} (only the partner closes RFIs)`);
      const user = await this.user();
      const rfi = await seedRfi(user.id);
      await setRfiStatus(rfi.rfiId, status);
      this.created('rfi', rfi.rfiId, `fixture:rfi-${status}`, `${status} by the hook`);
      return rfi;
    });
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

  rfi() {
    return this.shared('rfi', async () => {
      const seed = this.options.hooks?.seedRfi;
      if (!seed)
        throw new ProbeSkipped('needs an RFI with a text and a document item (only the partner raises RFIs)');
      const user = await this.user();
      const rfi = await seed(user.id);
      this.created('rfi', rfi.rfiId, 'fixture:rfi', 'closes on its own at the partner (due_at)');
      return rfi;
    });
  }
}
