/**
 * The conformance kit's model: a probe is one documented behaviour of the partner API,
 * with the request, the expected status and body shape, where the expectation comes from, whether
 * it writes, and what is cleaned up afterwards.
 */
import type { ProbeArea } from './report.types';
import type { Shape } from './shape.util';
import type { ConformanceHooks, ConformanceRfi } from './conformance-hooks.types';
import type {
  ConformanceWebhookOptions,
  PreviousTargetWatch,
  UserCreatedDelivery,
} from './webhooks/webhook.types';

export type { ConformanceHooks, ConformanceRfi } from './conformance-hooks.types';

/** Where an expectation comes from. The kit believes the contract over the evidence (precedence). */
export interface ProbeSource {
  /** `contract`: docs/partner-api.md; `evidence`: docs/partner-evidence.md (real partner sandbox). */
  kind: 'contract' | 'evidence';
  /** `§5.7` for the contract; the evidence tag, e.g. `[T3r DRIFT-35]`. */
  ref: string;
}

/** A request as the kit sends it; paths are relative to the base URL (spec 1). */
export interface ProbeRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  /** Relative to the base URL; with `url`, only what the report prints instead of it. */
  path: string;
  /**
   * An absolute URL the partner handed out (a document's download_url, evidence §7): sent there
   * instead of base + path, and never printed (a presigned link is a bearer credential).
   */
  url?: string;
  /** JSON body (sent with Content-Type: application/json). */
  body?: unknown;
  /** Multipart body (uploads, spec 4.2). */
  form?: FormData;
  /**
   * Which credentials go with it: `full` (x-api-key + bearer, the default), `api-key-only`,
   * `bearer-only`, `bad-bearer` (x-api-key + a token the partner never issued), `tampered-bearer`
   * (x-api-key + the run's token with the first character of its signature changed), `none`.
   */
  auth?: 'full' | 'api-key-only' | 'bearer-only' | 'bad-bearer' | 'tampered-bearer' | 'none';
  /** A bearer token to send instead of the run's (an expired one). */
  bearer?: string;
  /** X-Api-Version for this request; RFI probes send `2026-06-01` (evidence §7). */
  version?: string;
  /** Idempotency-Key: a fixed value, `'fresh'` (a new UUID v4) or absent. */
  idempotencyKey?: string | 'fresh';
}

/** What came back. */
export interface Observation {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: unknown;
  json: boolean;
  /** The body as received (a downloaded file is compared byte for byte). */
  bytes: Buffer;
  /** When the status and headers arrived (epoch ms with a fraction, `performance` clock). */
  answeredAt?: number;
}

export interface ProbeExpectation {
  /** One status or the statuses the documents allow (e.g. a replay answers 201, tolerate 202). */
  status: number | readonly number[];
  shape: Shape;
  /** Response headers that must be present (names, lowercase). */
  headers?: readonly string[];
}

/** Fixtures a probe needs; the runner makes each once per run and shares it. */
export type ProbeNeed =
  | 'user'
  | 'recipient'
  | 'verifiedUser'
  | 'virtualAccount'
  | 'activeVirtualAccount'
  | 'newVirtualAccount'
  | 'payee'
  | 'payout'
  | 'liquidationAddress'
  | 'rfi'
  | 'rfiDocument'
  | 'clientUuid'
  | 'foreignUser'
  | 'userCreatedDelivery'
  | 'previousRegistration';

/**
 * A resource made by a keyed POST (spec 4.7), with what made it: replaying `body` under
 * `idempotencyKey` must answer it again, another body under that key must be refused.
 */
export interface KeyedCreate {
  id: string;
  path: string;
  idempotencyKey: string;
  body: Record<string, unknown>;
  /** X-Api-Version the create was sent with (required on liquidation addresses, spec 4.6). */
  version?: string;
}

/** The shared state of one run, handed to each probe. */
export interface ProbeContext {
  readonly runId: string;
  /** How long a probe may wait for the partner to settle (ms). */
  readonly settleMs: number;
  /** `{ client_id, password }` for POST /auth (never printed). */
  authBody(): { client_id: string; password: string };
  /** Sends a request with the run's credentials. */
  send(request: ProbeRequest): Promise<Observation>;
  /**
   * `path` on the other stage of a sandbox base (`{base_url}/sandbox` → `{base_url}`), where the
   * run's credentials are another stage's (evidence §11 N1); skipped on any other base.
   */
  otherStageUrl(path: string): string;
  /** The user created for this run (POST /v1/users, status left to the partner). */
  user(): Promise<KeyedCreate>;
  /** A WIRE recipient of that user. */
  recipient(): Promise<KeyedCreate>;
  /** A VERIFIED user (needs `verifiedUserId` or a `verifyUser` hook; else the probe is skipped). */
  verifiedUser(): Promise<{ id: string }>;
  virtualAccount(): Promise<KeyedCreate & { userId: string }>;
  /** The run's virtual account, open and funded (needs the fundVirtualAccount hook; else skipped). */
  activeVirtualAccount(): Promise<{ id: string; userId: string }>;
  /** A second, new virtual account (second authorized bank), as the partner leaves it: activating. */
  newVirtualAccount(): Promise<{ id: string }>;
  /** The account's `index`th authorized bank (spec 2.4; skipped when it has fewer). */
  authorizedBank(index: number): Promise<string>;
  /** A recipient of the virtual account's user. */
  payee(): Promise<{ id: string }>;
  /** The run's payout (made by the payouts.create probe, or here when that probe did not run). */
  payout(): Promise<KeyedCreate>;
  /** A liquidation address of the run's virtual account (spec 4.6, evidence §5). */
  liquidationAddress(): Promise<KeyedCreate>;
  rfi(): Promise<ConformanceRfi>;
  /** A second RFI in `status` (needs the seedRfi and setRfiStatus hooks). */
  rfiIn(status: 'resolved' | 'withdrawn'): Promise<ConformanceRfi>;
  /**
   * An RFI of its own whose document item was answered with exactly one PDF (needs the seedRfi
   * hook): `sha256` of the bytes uploaded, to compare a download with.
   */
  rfiDocument(): Promise<{ rfiId: string; itemId: string; documentId: string; sha256: string }>;
  /** Expires the run's bearer token (needs the expireTokens hook); the next request logs in again. */
  expireToken(): Promise<string>;
  clientUuid(): Promise<string>;
  /** A user of another account (`foreignUserId` or the foreignUser hook; else the probe is skipped). */
  foreignUser(): Promise<{ id: string }>;
  /** A user created without a phone and its user.created delivery (needs `webhooks`; else skipped). */
  userCreatedDelivery(): Promise<UserCreatedDelivery>;
  /**
   * What reached the receiver of the previously registered URL while that delivery came (needs
   * `webhooks.previous` or the pointWebhooksAt hook; else skipped).
   */
  previousRegistration(): Promise<PreviousTargetWatch>;
  /** Records something the run created (named in the report). */
  created(kind: string, id: string, probeId: string): void;
}

/** One documented behaviour. */
export interface ConformanceProbe {
  /** Stable id, `area.behaviour` (the report and the fidelity table key on it). */
  id: string;
  area: ProbeArea;
  /** The behaviour in one sentence, as the documents state it. */
  behaviour: string;
  /** Where the expectation comes from, strongest first: the kit believes `sources[0]`. */
  sources: readonly ProbeSource[];
  /**
   * An observation that contradicts the expectation and that the documents already record (the
   * evidence saw the partner do otherwise and the contract wins), e.g. the gateway's `{message}`
   * 401: a divergence matching it is known, not a change.
   */
  knownConflict?: string;
  /** True when the request can create data at the partner: run only on a sandbox base with --allow-writes. */
  writes: boolean;
  needs?: readonly ProbeNeed[];
  request: ProbeRequest | ((ctx: ProbeContext) => Promise<ProbeRequest> | ProbeRequest);
  expect: ProbeExpectation;
  /** Runs after the probe whatever happened (e.g. log in again after an expired token). */
  after?: (ctx: ProbeContext) => Promise<void> | void;
  /** Value-level checks beyond the shape (e.g. a replay answers the original id); each string is a divergence. */
  verify?: (observed: Observation, ctx: ProbeContext) => Promise<string[]> | string[];
  /** What is cleaned up, or why nothing can be (the partner has no DELETE for users or recipients). */
  cleanup?: string;
  /** The kind of resource a successful answer creates (named in the report with its id). */
  creates?: string;
  /** A fixture the created resource stands in for, so later probes reuse it instead of creating another. */
  provides?: 'payout' | 'liquidationAddress' | 'newVirtualAccount';
  /** What our sandbox does here when it is worth saying (the README's fidelity table). */
  sandbox?: string;
}

export interface ConformanceCredentials {
  apiKey: string;
  clientId: string;
  password: string;
  /** Your own client UUID (client-configuration probes, spec 4.5); those probes are skipped without it. */
  clientUuid?: string;
}

export interface ConformanceOptions {
  /** The API base the probes join their paths to, e.g. `https://api.partner.example/sandbox`. */
  baseUrl: string;
  credentials: ConformanceCredentials;
  /** Run the probes that create data; honoured only on a sandbox base URL. Default false. */
  allowWrites?: boolean;
  /**
   * `sandbox` or `production`. Default: from the URL (a base ending in `/sandbox` is a sandbox,
   * spec 1). A production URL stays read-only whatever this says; `production` makes any URL read-only.
   */
  environment?: 'sandbox' | 'production';
  /** A user the partner has already VERIFIED (virtual-account and payout probes need one). */
  verifiedUserId?: string;
  /** A user id of another account of yours (cross-tenant probes, evidence §11 N14). */
  foreignUserId?: string;
  /** Starts a webhook receiver for the delivery probes; without it they are skipped. */
  webhooks?: ConformanceWebhookOptions;
  hooks?: ConformanceHooks;
  /** Only the probes whose id starts with one of these. */
  only?: readonly string[];
  /** Not the probes whose id starts with one of these. */
  skip?: readonly string[];
  /** How long to wait for a new user to leave CREATED/VERIFYING (the partner takes ~10 s). Default 15000. */
  settleMs?: number;
  /** Per-request timeout. Default 15000. */
  timeoutMs?: number;
  /** Probes to run instead of the shipped set (tests). */
  probes?: readonly ConformanceProbe[];
}
