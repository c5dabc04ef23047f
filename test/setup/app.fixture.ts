/**
 * Boots the reference app on a real socket (the same startApp as main.ts) against a sandbox on a
 * real socket, on the given database URL. Cron jobs are scheduled for a date that never comes
 * during a test: every job is triggered through its endpoint.
 */
import type { LoggerService } from '@nestjs/common';
import {
  signPartnerWebhook,
  startPartnerSandbox,
  type PartnerSandbox,
  type PartnerSandboxOptions,
} from '@partner-payments/testing';
import request from 'supertest';
import { startApp, type RunningApp } from '../../apps/reference-app/src/app-bootstrap.util';
import { PartnerInboxKeyRing, parseInboxKeys } from '@partner-payments/typeorm';

export const NEVER = '0 0 0 1 1 *'; // 1 January, 00:00:00

/**
 * The credentials startTestApp configures by default: OPERATOR_TOKEN for the
 * operator endpoints, APP_API_KEYS for the caller endpoints. Test values, never real ones.
 */
export const TEST_OPERATOR_TOKEN = 'test-operator-token-5f0c9a7e21';
export const TEST_API_KEY = 'test-api-key-8d41b6c0e397';

/** Both credentials as headers, for fetch or a child process's client. */
export const TEST_AUTH_HEADERS: Readonly<Record<string, string>> = {
  authorization: `Bearer ${TEST_OPERATOR_TOKEN}`,
  'x-api-key': TEST_API_KEY,
};

/**
 * supertest on the app, sending both test credentials with every request: the one easy way to
 * call any endpoint of an app started by startTestApp. `appRequest(running).post('/payouts')`.
 */
export function appRequest(running: RunningApp): ReturnType<typeof request.agent> {
  return request.agent(running.app.getHttpServer()).set(TEST_AUTH_HEADERS);
}

export async function startTestSandbox(options: PartnerSandboxOptions = {}): Promise<PartnerSandbox> {
  // The app suites open virtual accounts at bank_a (createFundedAccount) and bank_d (the ACT bank,
  // payout-memo). The partner authorizes none by default (spec 2.4 `authorizedBanks`: default []),
  // nor does the sandbox: the account these suites play was set up with those two.
  return startPartnerSandbox({
    quiet: true,
    authorizedBanks: ['bank_a', 'bank_d'],
    verificationDelayMs: 0, // users reach REVIEW at once (the partner: ~10 s, the sandbox's default)
    ...options,
  });
}

/**
 * The inbox keys of every test app (required with PARTNER_BASE_URL). Fixed, so an
 * app restarted on the same database (or a child process) opens what the previous one sealed.
 */
export const TEST_INBOX_ENCRYPTION_KEYS = `test1:${Buffer.alloc(32, 7).toString('base64')}`;

/** The key ring of TEST_INBOX_ENCRYPTION_KEYS, for suites that build the inbox store themselves. */
export function testInboxKeyRing(): PartnerInboxKeyRing {
  return new PartnerInboxKeyRing(parseInboxKeys(TEST_INBOX_ENCRYPTION_KEYS));
}

/** Environment of an app that talks to `sandbox` like to a remote partner (its inbox keys included). */
export function partnerEnv(sandbox: PartnerSandbox): Record<string, string> {
  return {
    PARTNER_BASE_URL: sandbox.baseUrl,
    PARTNER_ENV: 'sandbox',
    PARTNER_API_KEY: sandbox.credentials.apiKey,
    PARTNER_CLIENT_ID: sandbox.credentials.clientId,
    PARTNER_PASSWORD: sandbox.credentials.password,
    PARTNER_CLIENT_UUID: sandbox.credentials.clientUuid,
    PARTNER_WEBHOOK_SECRET: sandbox.webhookSecret,
    INBOX_ENCRYPTION_KEYS: TEST_INBOX_ENCRYPTION_KEYS,
  };
}

/** Any free port, jobs that never fire on their own (tests trigger them), no demo. */
export function testAppEnv(databaseUrl: string): Record<string, string> {
  return {
    PORT: '0',
    DATABASE_URL: databaseUrl,
    RECONCILE_CRON: NEVER,
    INBOX_REDELIVERY_CRON: NEVER,
    VERSION_PIN_CRON: NEVER,
    DEPOSIT_RECONCILE_CRON: NEVER,
    PAYOUT_REDRIVE_CRON: NEVER,
    INBOX_PRUNE_CRON: NEVER,
    RFI_RECONCILE_CRON: NEVER,
    DEMO: 'false',
    OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
    APP_API_KEYS: TEST_API_KEY,
  };
}

export interface StartTestAppOptions {
  logger?: LoggerService;
  /**
   * Wait for the start-up partner calls (version pin, first authentication), which run after
   * listen, so a test starts from a pinned, authenticated app. Default true.
   */
  waitForStartup?: boolean;
  /** Let the app pick its logger from its configuration (LOG_FORMAT, LOG_LEVEL) as main.ts does. Default false: silent. */
  appLogger?: boolean;
}

export async function startTestApp(
  databaseUrl: string,
  env: Record<string, string | undefined> = {},
  sandbox?: PartnerSandbox,
  options: StartTestAppOptions = {},
): Promise<RunningApp> {
  const running = await startApp({
    env: { ...testAppEnv(databaseUrl), ...(sandbox ? partnerEnv(sandbox) : {}), ...env },
    envFile: false,
    host: '127.0.0.1',
    logger: options.appLogger
      ? undefined
      : (options.logger ?? (process.env.TEST_APP_LOGS ? ['log', 'warn', 'error'] : false)),
  });
  // The operator registers the app's webhook URL (spec 6.1.1).
  if (sandbox) await sandbox.control.setWebhookUrl(`${running.url}/webhooks/partner`);
  if (options.waitForStartup !== false) await running.ready;
  return running;
}

/** Every line the app logs, at every level (LOG_LEVEL=debug is the most talkative setting). */
export class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  private add = (...parts: unknown[]): void => {
    // An Error stringifies to {}: keep its message and stack, where a leaked secret would show.
    const text = (p: unknown) =>
      typeof p === 'string' ? p : p instanceof Error ? `${p.message}\n${p.stack}` : JSON.stringify(p);
    this.lines.push(parts.map(text).join(' '));
  };
  log = this.add;
  error = this.add;
  warn = this.add;
  debug = this.add;
  verbose = this.add;
  fatal = this.add;
}

/** Polls until `check` returns a value that is not undefined, or fails after timeoutMs. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** POSTs `raw` to the app's webhook route, signed with `secret` as the partner signs (spec 6.1.3). */
export function deliverSignedWebhook(running: RunningApp, raw: string, secret: string): request.Test {
  return request(running.app.getHttpServer())
    .post('/webhooks/partner')
    .set('content-type', 'application/json')
    .set('x-signature-sha256', signPartnerWebhook(raw, secret))
    .send(raw);
}
