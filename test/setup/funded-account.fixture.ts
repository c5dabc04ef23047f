/** A verified user with a virtual account and a WIRE recipient, created through the app's own partner client. */
import {
  PartnerPayoutsService,
  PartnerRecipientsService,
  PartnerUsersService,
  PartnerVirtualAccountsService,
  type PartnerPaymentsClient,
  type PartnerPaymentsModuleOptions,
} from '@partner-payments/nestjs';
import {
  buildPartnerClientGraph,
  type PartnerClientGraph,
} from '../../libs/partner-payments/src/client-graph.util';
import { resolvePartnerOptions } from '../../libs/partner-payments/src/options-resolver.util';
import { randomUUID } from 'node:crypto';
import { PartnerSandboxControlClient, type PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../apps/reference-app/src/app-bootstrap.util';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { appRequest, startTestApp, startTestSandbox } from './app.fixture';
import type { DatabaseKind } from '../../apps/reference-app/src/database/database-url.util';
import { databaseUrlFor } from './test-database.fixture';
import { individual } from './partner-inputs.fixture';

export interface FundedAccount {
  userId: string;
  virtualAccountId: string;
  recipientId: string;
  /** Creates a payout at the partner directly (not through the app), with the given Idempotency-Key. */
  partnerCreatePayout(
    body: { virtual_account_id: string; recipient_id: string; amount: string; currency: string },
    key: string,
  ): Promise<string>;
}

/** The partner services a fixture needs: the app's own (in process) or a client of the test's. */
type PartnerServices = Pick<PartnerPaymentsClient, 'users' | 'virtualAccounts' | 'recipients' | 'payouts'>;

/** The module's client graph for `sandbox`, built the way the module builds it (quiet logger by default). */
export function partnerClientGraphFor(
  sandbox: PartnerSandbox,
  options: Partial<PartnerPaymentsModuleOptions> = {},
): PartnerClientGraph {
  return buildPartnerClientGraph(
    resolvePartnerOptions({
      environment: 'sandbox',
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.credentials.apiKey,
      clientId: sandbox.credentials.clientId,
      password: sandbox.credentials.password,
      clientUuid: sandbox.credentials.clientUuid,
      logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
      ...options,
    }),
  );
}

/**
 * A library client of `sandbox`, for tests that drive the partner themselves (e.g. while the app
 * runs in another process). No client-side rate limit unless asked.
 */
export function partnerClientFor(
  sandbox: PartnerSandbox,
  options: Partial<PartnerPaymentsModuleOptions> = {},
): PartnerPaymentsClient {
  return partnerClientGraphFor(sandbox, { rateLimit: false, ...options }).client;
}

export async function createFundedAccount(
  partner: RunningApp | { client: PartnerServices; baseUrl: string },
  tag = 'e2e',
): Promise<FundedAccount> {
  const services: PartnerServices =
    'app' in partner
      ? {
          users: partner.app.get(PartnerUsersService),
          virtualAccounts: partner.app.get(PartnerVirtualAccountsService),
          recipients: partner.app.get(PartnerRecipientsService),
          payouts: partner.app.get(PartnerPayoutsService),
        }
      : partner.client;
  const { users, virtualAccounts: vas, recipients, payouts } = services;
  const baseUrl = 'app' in partner ? partner.connection.baseUrl : partner.baseUrl;
  const user = await users.create(
    individual({ first_name: 'Test', last_name: tag, email: `${tag}@example.com`, metadata: { tag } }),
  );
  // The partner's sandbox stops in REVIEW (evidence §3): its staff verify; here the control API does.
  const control = new PartnerSandboxControlClient(baseUrl);
  await control.setUserVerificationOutcome(user.userId, 'approved');
  const va = await vas.create({ user_id: user.userId, type: 'US_BANK', bank: 'bank_a' });
  // evidence §5: the account stays `activating` until the partner's staff open it, and payouts draw
  // on its balance: the control opens it and credits 1,000,000.00 so long suites never run dry.
  await control.fundVirtualAccount(String(va.virtual_account_id ?? va.id), '1000000.00');
  const recipient = await recipients.create({
    user_id: user.userId,
    type: 'individual',
    first_name: 'Rita',
    last_name: tag,
    email: `rita.${tag}@example.com`,
    address: { street_name: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
    account: {
      account_type: 'WIRE',
      routing_number: '021000021',
      account_number: String(Date.now()).slice(-12),
      type: 'checking',
      bank_name: 'Test Bank',
      bank_address: { street_name: '270 Park Ave', city: 'New York', state: 'NY', country: 'US' },
    },
  });
  return {
    userId: user.userId,
    virtualAccountId: String(va.virtual_account_id ?? va.id),
    recipientId: recipient.recipient_id,
    async partnerCreatePayout(body, key) {
      const p = await payouts.create(
        body.virtual_account_id,
        { amount: body.amount, currency: body.currency, recipient_id: body.recipient_id },
        { idempotencyKey: key },
      );
      return p.payoutId;
    },
  };
}

/** POST /payouts of the app (42.00 USD from the account to its recipient) with a new key; expects 201. */
export async function postPayout(
  running: RunningApp,
  account: FundedAccount,
  headers: Record<string, string> = {},
): Promise<{ payoutId: string; headers: Record<string, string> }> {
  const res = await appRequest(running)
    .post('/payouts')
    .set({ 'Idempotency-Key': randomUUID(), ...headers })
    .send({
      virtual_account_id: account.virtualAccountId,
      recipient_id: account.recipientId,
      amount: '42.00',
      currency: 'USD',
    })
    .expect(201);
  return { payoutId: res.body.payout_id as string, headers: res.headers as Record<string, string> };
}

export interface FundedAppWorld {
  sandbox: PartnerSandbox;
  running: RunningApp;
  account: FundedAccount;
  uow: PartnerUnitOfWork;
}

/**
 * A suite's world on one database: the sandbox, the app on a fresh database named `database`, and a
 * funded account (its set-up webhooks flushed), started in beforeAll and closed in afterAll.
 * `ready` receives it once started; `env` is added to the app's environment.
 */
export function useFundedApp(
  kind: DatabaseKind,
  database: string,
  label: string,
  ready: (world: FundedAppWorld) => void,
  env: Record<string, string> = {},
): void {
  let sandbox: PartnerSandbox | undefined;
  let running: RunningApp | undefined;
  let cleanup: (() => void) | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor(kind, database);
    cleanup = db.cleanup;
    running = await startTestApp(db.url, env, sandbox);
    const account = await createFundedAccount(running, label);
    await sandbox.control.flushWebhooks();
    ready({ sandbox, running, account, uow: running.app.get(PartnerUnitOfWork) });
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });
}
