import { DOCUMENT_LINK_PATH, DocumentLinkSigner } from '../resources/rfis/document-link.util';
import { documentLinkHandler } from '../resources/rfis/document-links.routes';
import { checkPayoutFees, checkQuoteTtlMs, QUOTE_TTL_MS } from '../resources/payouts/payout-preview.routes';
import { once } from 'node:events';
import { AccessTokenSigner } from '../resources/auth/access-token.util';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import { bodyMiddleware } from '../middleware/body.middleware';
import { setAppHeaders } from '../middleware/app-headers.middleware';
import { corsPreflight, foreignStage } from '../middleware/gateway.middleware';
import { createControlRouter } from '../control/control.routes';
import { faultsMiddleware } from '../middleware/faults.middleware';
import { FaultStore } from '../middleware/faults.store';
import { sendRouteNotMatched } from './http-errors.util';
import { checkIdempotencyKeyTtlMs, IdempotencyStore } from '../middleware/idempotency.store';
import { createPartnerRouter } from './partner.routes';
import { PARTNER_RATE_LIMIT, rateLimitMiddleware } from '../middleware/rate-limit.middleware';
import { requestLogMiddleware } from '../middleware/request-log.middleware';
import type { ResolvedOptions, SandboxContext } from './sandbox-context.util';
import { InProcessControl } from '../control/sandbox-control.service';
import type { PartnerSandbox, PartnerSandboxOptions, SandboxLogger } from './sandbox.types';
import { StateStore } from './state.store';
import { Telemetry } from './telemetry.store';
import {
  checkSecretOverlapMs,
  PARTNER_SECRET_OVERLAP_MS,
  WebhookSender,
} from '../webhooks/webhook-sender.service';

/** Fixed test values used when no credentials are given (never use them outside tests). */
export const SANDBOX_DEFAULTS = {
  apiKey: 'sandbox_test_api_key',
  clientId: 'sandbox_test_client',
  password: 'sandbox_test_password',
  clientUuid: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  webhookSecret: 'whsec_sandbox_test_secret',
} as const;

function makeLogger(options: PartnerSandboxOptions): SandboxLogger {
  const quiet = options.quiet ?? process.env.JEST_WORKER_ID !== undefined;
  if (quiet) return { log: () => undefined, warn: () => undefined };
  return (
    options.logger ?? {
      log: (m) => console.warn(`[partner-sandbox] ${m}`),
      warn: (m) => console.warn(`[partner-sandbox] ${m}`),
    }
  );
}

/**
 * Last resort: a thrown error answers a bare 500, body errors (too large, bad encoding) their 4xx;
 * both are the API's answers, with x-api-version (evidence §11 N5).
 */
const errorHandler =
  (ctx: SandboxContext): ErrorRequestHandler =>
  (err: { status?: number; message?: string }, req, res, _next) => {
    if (res.headersSent) return void res.end();
    setAppHeaders(ctx, req, res);
    const status = typeof err.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) return void res.status(500).type('text/plain').send('Internal Server Error');
    res.status(status).json({ code: 'validation_error', message: err.message ?? 'Bad request' });
  };

function resolveUserVerification(mode: unknown): ResolvedOptions['userVerification'] {
  if (mode === undefined) return 'manual';
  if (mode === 'manual' || mode === 'auto-approve' || mode === 'ein-table') return mode;
  throw new Error(`userVerification must be 'manual', 'auto-approve' or 'ein-table', got ${String(mode)}`);
}

/**
 * Starts a contract-faithful partner simulator on a real socket (default 127.0.0.1, random port).
 * Routes are served under `/sandbox` (the root answers as the partner's other stage; `bases`); the
 * control API under `/__control`.
 */
export async function startPartnerSandbox(options: PartnerSandboxOptions = {}): Promise<PartnerSandbox> {
  const logger = makeLogger(options);
  const store = new StateStore();
  const telemetry = new Telemetry();
  // evidence §1 [T1 REVISION-DOCS §3.3]: the partner limits every account (20/s, burst 50, 429
  // above), so the limit is on unless a test opts out with `rateLimit: false`.
  const rate =
    options.rateLimit === false
      ? null
      : options.rateLimit === undefined || options.rateLimit === true
        ? PARTNER_RATE_LIMIT
        : options.rateLimit;
  const ctx: SandboxContext = {
    options: {
      tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
      // evidence §3 [T3r DRIFT-23]: CREATED → VERIFYING → REVIEW in about 10 s at the partner: two
      // steps of 5 s. 0 (at once) is the opt-in convenience.
      verificationDelayMs: options.verificationDelayMs ?? 5_000,
      userVerification: resolveUserVerification(options.userVerification),
      rateLimit: rate,
      autoPayouts: options.autoPayouts === true ? { stepDelayMs: 20 } : options.autoPayouts || null,
      rfiEvents: options.rfiEvents ?? false,
      // Checked at start: the preview computes its fees on exact cents of these (amounts.util).
      payoutFees: checkPayoutFees(options.payoutFees ?? 'partner'),
      quoteTtlMs: checkQuoteTtlMs(options.quoteTtlMs ?? QUOTE_TTL_MS),
      // evidence §9 [T1 REVISION-DOCS §2.4]: about a minute of old-secret signing after a rotation.
      webhookSecretOverlapMs:
        options.webhookSecretOverlapMs === undefined
          ? PARTNER_SECRET_OVERLAP_MS
          : checkSecretOverlapMs(options.webhookSecretOverlapMs, 'webhookSecretOverlapMs'),
    },
    store,
    idempotency: new IdempotencyStore(
      options.idempotencyKeyTtlMs === undefined
        ? undefined
        : checkIdempotencyKeyTtlMs(options.idempotencyKeyTtlMs),
    ),
    telemetry,
    faults: new FaultStore(),
    webhooks: new WebhookSender(store, telemetry, options.webhookTimeoutMs ?? 10_000, logger),
    logger,
    accessTokens: await AccessTokenSigner.create(),
    documentLinks: new DocumentLinkSigner(),
    timers: new Set(),
  };
  const account = store.createAccount({
    apiKey: options.credentials?.apiKey ?? SANDBOX_DEFAULTS.apiKey,
    clientId: options.credentials?.clientId ?? SANDBOX_DEFAULTS.clientId,
    password: options.credentials?.password ?? SANDBOX_DEFAULTS.password,
    clientUuid: options.clientUuid ?? SANDBOX_DEFAULTS.clientUuid,
    webhookUrl: options.webhookUrl,
    webhookSecret: options.webhookSecret ?? SANDBOX_DEFAULTS.webhookSecret,
    authorizedBanks: options.authorizedBanks,
    defaultUserMetadata: options.defaultUserMetadata,
    companyName: options.companyName,
    pinnedVersion: options.pinnedVersion,
  });
  const control = new InProcessControl(ctx);

  const app = express();
  app.disable('x-powered-by');
  // evidence §11 N4: the API's answers carry Express's weak etag (`W/"<length>-<hash>"`).
  app.set('etag', 'weak');
  app.use('/__control', createControlRouter(control));
  app.use(requestLogMiddleware(ctx));
  // The presigned links' object store (evidence §7): another host at the partner, so no partner auth,
  // rate limit or faults here.
  app.get(`${DOCUMENT_LINK_PATH}/:documentId`, documentLinkHandler(ctx, ctx.documentLinks));
  app.use(rateLimitMiddleware(ctx));
  app.use(faultsMiddleware(ctx));
  app.use(...bodyMiddleware(ctx));
  const partner = createPartnerRouter(ctx);
  // spec 1, evidence §11 C2, N1: the sandbox is {base_url}/sandbox and its credentials belong to
  // that stage; on the other base they get the gateway's 403/401 (foreignStage), so a client that
  // drops the prefix (provider-facts: `new URL('/v1/x', base)` does) fails here as at the partner.
  // 'both' (both bases answer) is an opt-in convenience the partner does not have.
  const bases = options.bases ?? 'sandbox';
  if (!['both', 'sandbox', 'root'].includes(bases))
    throw new Error(`bases must be 'both', 'sandbox' or 'root', got ${String(bases)}`);
  app.use(corsPreflight(partner));
  app.use('/sandbox', bases === 'root' ? foreignStage(partner) : partner);
  app.use(bases === 'sandbox' ? foreignStage(partner) : partner);
  app.use((_req, res) => sendRouteNotMatched(res));
  app.use(errorHandler(ctx));

  const server = app.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([e]) => Promise.reject(e as Error)),
  ]);
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.log(
    `listening on ${baseUrl}${bases === 'root' ? '' : '/sandbox'}; control API at ${baseUrl}/__control`,
  );

  let closed = false;
  return {
    baseUrl,
    sandboxBaseUrl: `${baseUrl}/sandbox`,
    controlUrl: `${baseUrl}/__control`,
    port,
    credentials: {
      apiKey: account.apiKey,
      clientId: account.clientId,
      password: account.password,
      clientUuid: account.clientUuid,
    },
    /** The current secret (follows rotateWebhookSecret). */
    get webhookSecret() {
      return account.webhookSecret;
    },
    control,
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of ctx.timers) clearTimeout(timer);
      await ctx.webhooks.idle();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await done;
    },
  };
}
