/**
 * An end-to-end test of YOUR app against the partner sandbox: copy it under a name of its own
 *   cp node_modules/@partner-payments/testing/examples/app.e2e-spec.ts test/partner-sandbox.e2e-spec.ts
 * and run it: `npm run test:e2e` in an app made by `nest new` (Vitest), or with the Jest preset in a
 * CommonJS app (`preset: '@partner-payments/testing'`); see the package README, "Test your app".
 *
 * It boots your real AppModule (which imports PartnerPaymentsModule, configured from PARTNER_*
 * environment variables as in the @partner-payments/nestjs README) on a real port, points it at a
 * sandbox started in this process, points the sandbox's webhooks at the app, and checks that a
 * call reaches the partner and that the signed webhooks come back into @OnPartnerEvent handlers.
 *
 * Adapt: the import of AppModule, the environment variable names your config reads, and the
 * handler below (or assert on your own handlers' effects: rows written, jobs queued ...).
 */
import { Injectable } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import {
  OnPartnerEvent,
  PartnerEvent,
  PartnerPaymentsClient,
  type PartnerEventOf,
} from '@partner-payments/nestjs';
import { PartnerWebhookProcessingService } from '@partner-payments/nestjs/webhooks';
import { startPartnerSandbox, type PartnerSandbox } from '@partner-payments/testing';
import { AppModule } from '../src/app.module.js';

/** Records what the app received; registered next to your own handlers. */
@Injectable()
class ReceivedPartnerEvents {
  readonly usersCreated: PartnerEventOf<'user.created'>[] = [];
  readonly payoutsCompleted: PartnerEventOf<'payout.completed'>[] = [];

  @OnPartnerEvent(PartnerEvent.UserCreated)
  userCreated(event: PartnerEventOf<'user.created'>) {
    this.usersCreated.push(event);
  }

  @OnPartnerEvent(PartnerEvent.PayoutCompleted)
  payoutCompleted(event: PartnerEventOf<'payout.completed'>) {
    this.payoutsCompleted.push(event);
  }
}

describe('the app against the partner sandbox', () => {
  let sandbox: PartnerSandbox;
  let app: NestExpressApplication;
  let partner: PartnerPaymentsClient;
  let received: ReceivedPartnerEvents;

  beforeAll(async () => {
    // In this process, on a random port; state in memory. Like a partner account, it authorizes no
    // bank until told (spec 2.4): the test opens a virtual account at bank_a.
    sandbox = await startPartnerSandbox({ authorizedBanks: ['bank_a'] });
    // Your AppModule reads these through ConfigService when it boots (below), so they win over a
    // .env file. If your ConfigModule validates (validate / validationSchema), it captures the
    // environment when app.module is imported instead: start the sandbox in a Jest globalSetup
    // and set these there.
    Object.assign(process.env, {
      PARTNER_BASE_URL: sandbox.baseUrl,
      PARTNER_API_KEY: sandbox.credentials.apiKey,
      PARTNER_CLIENT_ID: sandbox.credentials.clientId,
      PARTNER_PASSWORD: sandbox.credentials.password,
      PARTNER_CLIENT_UUID: sandbox.credentials.clientUuid,
      PARTNER_WEBHOOK_SECRET: sandbox.webhookSecret,
    });

    const moduleRef = await Test.createTestingModule({
      imports: [AppModule],
      providers: [ReceivedPartnerEvents],
    }).compile();
    // As in main.ts: the raw body (the signature is over the exact bytes) and Express's body parser.
    app = moduleRef.createNestApplication<NestExpressApplication>({ rawBody: true });
    app.useBodyParser('json', { limit: '1mb' });
    await app.listen(0, '127.0.0.1'); // a free port
    // The partner sends every event to one URL per account: this app's webhook route.
    await sandbox.control.setWebhookUrl(`${await app.getUrl()}/webhooks/partner`);

    partner = app.get(PartnerPaymentsClient);
    received = app.get(ReceivedPartnerEvents);
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
  });

  /** Every queued delivery sent, and every handler it triggered finished. */
  async function settle(): Promise<void> {
    await sandbox.control.flushWebhooks();
    await app.get(PartnerWebhookProcessingService).drain();
  }

  it('creates a user; the signed user.created webhook reaches the handler', async () => {
    const user = await partner.users.create({
      type: 'individual',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      source_of_funds: 'salary',
    });
    await settle();

    expect(received.usersCreated.map((e) => e.payload.user_id)).toContain(user.userId);
    const delivery = (await sandbox.control.deliveries()).find((d) => d.event === 'user.created');
    expect(delivery).toMatchObject({ outcome: 'delivered', status: 200 }); // verified and recorded
    expect(delivery?.signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('pays out; the sandbox drives it to COMPLETED and payout.completed arrives', async () => {
    // The partner never verifies a user on its own (its staff do): the sandbox stops in REVIEW too,
    // and its control API plays the staff's part.
    const user = await partner.users.create({
      type: 'individual',
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      phone: '+15555550100',
      birth_date: '1990-12-09',
      nationality: 'USA',
      address_street: '1 Main St',
      address_city: 'Austin',
      address_state: 'TX',
      address_zip_code: '78701',
      address_country: 'USA',
      ssn: '123456789',
      source_of_funds: 'salary',
      account_purpose: 'personal_or_living_expenses',
      occupation: 'engineer',
    });
    await sandbox.control.setUserVerificationOutcome(user.userId, 'approved');
    const address = {
      street_name: '1 Main St',
      city: 'Austin',
      state: 'TX',
      postal_code: '78701',
      country: 'US',
    };
    const { recipient } = await partner.recipients.createOrGet({
      user_id: user.userId,
      type: 'individual',
      first_name: 'Bob',
      last_name: 'Payee',
      email: 'bob@payee.example',
      address,
      account: {
        account_type: 'WIRE',
        routing_number: '021000021',
        account_number: '123456789',
        type: 'checking',
        bank_name: 'B',
        bank_address: address,
      },
    });
    const account = await partner.virtualAccounts.create({ user_id: user.userId, bank: 'bank_a' });
    // The partner's staff open the account and money arrives: the sandbox's control plays both.
    await sandbox.control.fundVirtualAccount(String(account.virtual_account_id));
    const payout = await partner.payouts.create(String(account.virtual_account_id), {
      amount: '100.00',
      currency: 'USD',
      recipient_id: recipient.recipient_id,
    });

    // What the partner does over time, on demand: see the package README for every step.
    await sandbox.control.advancePayout(payout.payoutId, ['PENDING', 'PROCESSING', 'COMPLETED']);
    await settle();

    const completed = received.payoutsCompleted.find((e) => e.payload.payout_id === payout.payoutId);
    expect(completed?.payload.reference_number).toEqual(expect.any(String));
    expect((await partner.payouts.get(payout.payoutId)).status).toBe('COMPLETED');
    expect((await sandbox.control.counters()).idempotencyKeyReuses).toBe(0);
  });
});
