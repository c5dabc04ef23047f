/**
 * Boots the reference app on a real socket (the same startApp as main.ts) against a sandbox on a
 * real socket, on the given database URL. Cron jobs are scheduled for a date that never comes
 * during a test: every job is triggered through its endpoint.
 */
import {
  startPartnerSandbox,
  type PartnerSandbox,
  type PartnerSandboxOptions,
} from '@partner-payments/testing';
import { startApp, type RunningApp } from '../../apps/reference-app/src/app.bootstrap';

export const NEVER = '0 0 0 1 1 *'; // 1 January, 00:00:00

export async function startTestSandbox(options: PartnerSandboxOptions = {}): Promise<PartnerSandbox> {
  return startPartnerSandbox({ quiet: true, ...options });
}

/** Environment of an app that talks to `sandbox` like to a remote partner. */
export function partnerEnv(sandbox: PartnerSandbox): Record<string, string> {
  return {
    PARTNER_BASE_URL: sandbox.baseUrl,
    PARTNER_ENV: 'sandbox',
    PARTNER_API_KEY: sandbox.credentials.apiKey,
    PARTNER_CLIENT_ID: sandbox.credentials.clientId,
    PARTNER_PASSWORD: sandbox.credentials.password,
    PARTNER_CLIENT_UUID: sandbox.credentials.clientUuid,
    PARTNER_WEBHOOK_SECRET: sandbox.webhookSecret,
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
    DEMO: 'false',
  };
}

export async function startTestApp(
  databaseUrl: string,
  env: Record<string, string | undefined> = {},
  sandbox?: PartnerSandbox,
): Promise<RunningApp> {
  const running = await startApp({
    env: { ...testAppEnv(databaseUrl), ...(sandbox ? partnerEnv(sandbox) : {}), ...env },
    envFile: false,
    host: '127.0.0.1',
    logger: process.env.TEST_APP_LOGS ? ['log', 'warn', 'error'] : false,
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
