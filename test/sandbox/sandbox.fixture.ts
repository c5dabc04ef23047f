/**
 * Helpers for the sandbox's own e2e suites: plain fetch over a real socket, and the package's own
 * webhook receiver (verifies signatures over the raw bytes) behind the suites' shorter interface.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  startPartnerSandbox,
  startWebhookReceiver,
  type PartnerSandbox,
  type PartnerSandboxOptions,
} from '@partner-payments/testing';
import { business, individual, usAddress, wireAccount, wireRecipient } from '../setup/partner-inputs.fixture';

export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  rawBody?: string | FormData;
  headers?: Record<string, string>;
  version?: string;
  idempotencyKey?: string | false;
  auth?: boolean;
  apiKey?: string | null;
}

const WRITES = [
  /^POST \/v1\/users$/,
  /^POST \/v1\/recipients$/,
  /^POST \/v1\/virtual-accounts$/,
  /^POST \/v1\/virtual-accounts\/[^/]+\/payout$/,
  // evidence §5 [D for-ai-agents]: the sixth keyed endpoint.
  /^POST \/v1\/virtual-accounts\/[^/]+\/liquidation-address$/,
];

/** A minimal partner API client for tests: x-api-key, bearer, X-Api-Version, Idempotency-Key. */
export class Api {
  token: string | undefined;

  constructor(
    readonly base: string,
    readonly creds: { apiKey: string; clientId: string; password: string },
  ) {}

  async login(): Promise<this> {
    const answer = await this.call('POST', '/auth', {
      body: { client_id: this.creds.clientId, password: this.creds.password },
      auth: false,
    });
    if (answer.status !== 200) throw new Error(`login failed: ${answer.status} ${answer.text}`);
    this.token = answer.body.data.access_token;
    return this;
  }

  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const apiKey = options.apiKey === undefined ? this.creds.apiKey : options.apiKey;
    if (apiKey !== null) headers['x-api-key'] = apiKey;
    if (options.auth !== false && this.token) headers.authorization = `Bearer ${this.token}`;
    if (options.version) headers['x-api-version'] = options.version;
    const route = `${method} ${path.split('?')[0]}`;
    if (options.idempotencyKey !== false && WRITES.some((re) => re.test(route))) {
      headers['idempotency-key'] = options.idempotencyKey || randomUUID();
    }
    let body: string | FormData | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(`${this.base}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* bare body */
    }
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  }
}

export interface ReceivedWebhook {
  raw: string;
  headers: IncomingHttpHeaders;
  body: any;
  validSignature: boolean;
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Status the receiver answers next (default 200). */
  answerWith: number;
  secrets: string[];
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  events(name?: string): ReceivedWebhook[];
  close(): Promise<void>;
}

/** The package's startWebhookReceiver, with the suites' names (answerWith, events(), waitFor(count, ms)). */
export async function startReceiver(secrets: string[]): Promise<Receiver> {
  const inner = await startWebhookReceiver({ secrets });
  return {
    url: inner.url,
    received: inner.received,
    get answerWith() {
      return inner.answerStatus;
    },
    set answerWith(status: number) {
      inner.answerStatus = status;
    },
    secrets: inner.secrets,
    waitFor: (count, timeoutMs) => inner.waitFor(count, { timeoutMs }),
    events: (name) => (name ? inner.received.filter((r) => r.event === name) : inner.received),
    close: () => inner.close(),
  };
}

export interface World {
  sandbox: PartnerSandbox;
  api: Api;
  receiver: Receiver;
}

/** A sandbox with a receiver wired as its webhook URL and a logged-in API client on the /sandbox base. */
export async function startWorld(options: PartnerSandboxOptions = {}): Promise<World> {
  const receiver = await startReceiver([options.webhookSecret ?? 'whsec_e2e_secret']);
  const sandbox = await startPartnerSandbox({
    webhookSecret: 'whsec_e2e_secret',
    webhookUrl: receiver.url,
    // Users reach REVIEW at once (the partner takes ~10 s, the sandbox's default): tests that need
    // the partner's pace pass verificationDelayMs themselves.
    verificationDelayMs: 0,
    // The suites open virtual accounts at all four banks. The partner authorizes none by default
    // (spec 2.4 `authorizedBanks`: default []) and neither does the sandbox: say which, explicitly.
    authorizedBanks: ['bank_a', 'bank_b', 'bank_c', 'bank_d'],
    ...options,
  });
  const api = await new Api(sandbox.sandboxBaseUrl, sandbox.credentials).login();
  return { sandbox, api, receiver };
}

export async function stopWorld(world: World | undefined): Promise<void> {
  if (!world) return;
  await world.sandbox.close();
  await world.receiver.close();
}

/**
 * The describe block's world: started before each test (`'each'`, the default) or once for the
 * block (`'all'`), stopped after. The object is filled in place, so `world.api` reads the current
 * one in every test.
 */
export function useWorld(options: PartnerSandboxOptions = {}, per: 'each' | 'all' = 'each'): World {
  const world = {} as World;
  const [before, after] = per === 'each' ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => void Object.assign(world, await startWorld(options)));
  after(async () => {
    const started = world.sandbox ? { ...world } : undefined;
    // Emptied first: a later before() that fails leaves nothing stopped twice.
    for (const key of Object.keys(world)) delete (world as unknown as Record<string, unknown>)[key];
    await stopWorld(started);
  });
  return world;
}

export { business, individual, usAddress, wireAccount, wireRecipient };
