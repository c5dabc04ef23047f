/**
 * Boots the reference app on a real socket (the same startApp as main.ts) against a sandbox on a
 * real socket, on the given database URL. Cron jobs are scheduled for a date that never comes
 * during a test: every job is triggered through its endpoint.
 */
import type { LoggerService } from '@nestjs/common';
import {
  startPartnerSandbox,
  type PartnerSandbox,
  type PartnerSandboxOptions,
} from '@partner-payments/testing';
import { startApp, type RunningApp } from '../../apps/reference-app/src/app.bootstrap';
import { InboxKeyRing, parseInboxKeys } from '../../apps/reference-app/src/webhooks/inbox-key.ring';

export const NEVER = '0 0 0 1 1 *'; // 1 January, 00:00:00

export async function startTestSandbox(options: PartnerSandboxOptions = {}): Promise<PartnerSandbox> {
  return startPartnerSandbox({ quiet: true, ...options });
}

/**
 * The inbox keys of every test app (issue 9 defect 3: required with PARTNER_BASE_URL). Fixed, so an
 * app restarted on the same database (or a child process) opens what the previous one sealed.
 */
export const TEST_INBOX_ENCRYPTION_KEYS = `test1:${Buffer.alloc(32, 7).toString('base64')}`;

/** The key ring of TEST_INBOX_ENCRYPTION_KEYS, for suites that build the inbox store themselves. */
export function testInboxKeyRing(): InboxKeyRing {
  return new InboxKeyRing(parseInboxKeys(TEST_INBOX_ENCRYPTION_KEYS));
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

export async function startTestApp(
  databaseUrl: string,
  env: Record<string, string | undefined> = {},
  sandbox?: PartnerSandbox,
  /** A logger that receives every level (e.g. to scan the logs). Default: none, or TEST_APP_LOGS. */
  logger?: LoggerService,
): Promise<RunningApp> {
  const running = await startApp({
    env: {
      PORT: '0',
      DATABASE_URL: databaseUrl,
      RECONCILE_CRON: NEVER,
      INBOX_REDELIVERY_CRON: NEVER,
      VERSION_PIN_CRON: NEVER,
      DEPOSIT_RECONCILE_CRON: NEVER,
      INBOX_PRUNE_CRON: NEVER,
      DEMO: 'false',
      ...(sandbox ? partnerEnv(sandbox) : {}),
      ...env,
    },
    envFile: false,
    host: '127.0.0.1',
    logger: logger ?? (process.env.TEST_APP_LOGS ? ['log', 'warn', 'error'] : false),
  });
  // The operator registers the app's webhook URL (spec 6.1.1).
  if (sandbox) await sandbox.control.setWebhookUrl(`${running.url}/webhooks/partner`);
  return running;
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
