import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  PartnerRecipientsService,
  PartnerUsersService,
  PartnerVirtualAccountsService,
} from '@partner-payments/nestjs';
import { API_KEY_HEADER } from '../common/access.guard';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import type { PayoutResponse } from '../payouts/create-payout.dto';
import { ReconciliationService } from '../reconciliation/reconciliation.service';
import { PARTNER_CONNECTION, type PartnerConnection } from '../sandbox/partner-connection.providers';
import { RfiDemo } from './rfi-demo.service';

export interface DemoResult {
  userId: string;
  virtualAccountId: string;
  recipientId: string;
  payoutId: string;
  /** Status after the webhooks (the V2 hold). */
  heldStatus: string;
  /** Status after reconciliation read the resource. */
  finalStatus: string;
  /** The RFI the sandbox asked about the user, answered through the app's endpoints. */
  rfi: { rfiId: string; status: string };
}

/**
 * The scripted flow of `npm start` with nothing configured (issue: the demo): a user, a virtual
 * account, a recipient and a payout on the embedded sandbox; webhooks including a V2 hold; then a
 * resolution that exists only on the resource, picked up by reconciliation (spec 6.4.8).
 * The payout is created through the app's own POST /payouts, as a client would.
 */
@Injectable()
export class DemoRunner {
  private readonly logger = new Logger('Demo');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PARTNER_CONNECTION) private readonly connection: PartnerConnection,
    private readonly users: PartnerUsersService,
    private readonly virtualAccounts: PartnerVirtualAccountsService,
    private readonly recipients: PartnerRecipientsService,
    private readonly reconciliation: ReconciliationService,
    private readonly rfiDemo: RfiDemo,
  ) {}

  async run(appUrl: string): Promise<DemoResult> {
    const sandbox = this.connection.sandbox;
    if (!sandbox) throw new Error('the demo drives the embedded sandbox: unset PARTNER_BASE_URL to run it');
    const log = (line: string): void => this.logger.log(line);

    const user = await this.users.create({
      type: 'individual',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      birth_date: '1990-12-10',
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
      metadata: { origin: 'demo' },
    });
    log(
      `1/6 user ${user.userId} created: status ${user.status ?? 'unknown'}, verification triggered: ${String(user.verificationTriggered)}`,
    );
    // The partner never verifies on its own (its sandbox stops in REVIEW; evidence §3): its staff
    // decide. The embedded sandbox's control API plays them here.
    const verified = await sandbox.control.setUserVerificationOutcome(user.userId, 'approved');
    log(`   the partner's staff (the sandbox control) verified it: status ${verified}`);

    const va = await this.virtualAccounts.create({ user_id: user.userId, type: 'US_BANK', bank: 'bank_a' });
    const vaId = va.virtual_account_id ?? va.id ?? '';
    // evidence §5: the account waits in `activating` with no account number until the partner's
    // staff open it, and a payout draws on its balance: the control opens it and simulates a deposit.
    await sandbox.control.fundVirtualAccount(vaId, '1000.00');
    const opened = await this.virtualAccounts.get(vaId);
    log(
      `2/6 virtual account ${vaId} at bank_a: created ${va.status ?? 'unknown'}, opened by the partner's staff (the control): ${opened.status ?? 'unknown'}, account ending ${String(opened.account_number ?? '').slice(-4) || '----'}, funded 1000.00`,
    );

    const recipient = await this.recipients.create({
      user_id: user.userId,
      type: 'individual',
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      address: {
        street_name: '1 Navy Way',
        city: 'Arlington',
        state: 'VA',
        postal_code: '22201',
        country: 'US',
      },
      account: {
        account_type: 'WIRE',
        routing_number: '021000021',
        account_number: '000123456789',
        type: 'checking',
        bank_name: 'Demo Bank',
        bank_address: { street_name: '270 Park Ave', city: 'New York', state: 'NY', country: 'US' },
      },
    });
    log(`3/6 recipient ${recipient.recipient_id} (WIRE, account ending 6789)`);

    const key = randomUUID();
    const created = await this.post<PayoutResponse>(`${appUrl}/payouts`, key, {
      virtual_account_id: vaId,
      recipient_id: recipient.recipient_id,
      amount: '125.00',
      currency: 'USD',
    });
    log(
      `4/6 POST /payouts (Idempotency-Key ${key}) -> payout ${created.payout_id} ${created.amount} ${created.currency}: ${created.status}`,
    );

    await sandbox.control.advancePayout(created.payout_id, [
      'PENDING',
      'PROCESSING',
      { status: 'KYT_PENDING', reviewReason: 'kyt_screening' },
    ]);
    await sandbox.control.flushWebhooks();
    const held = await this.waitForStatus(appUrl, created.payout_id, 'KYT_PENDING');
    log(
      `5/6 the sandbox sent payout.pending, payout.processing and payout.status_changed (V2); stored status ${held.status}, review reason ${held.review_reason ?? '-'}`,
    );

    // The hold resolves on the resource only: no event is sent (spec 3.4, 6.4.8).
    await sandbox.control.advancePayout(created.payout_id, { status: 'COMPLETED', events: 'none' });
    const summary = await this.reconciliation.runOnce();
    const final = await this.get(`${appUrl}/payouts/${created.payout_id}`);
    log(
      `6/6 the hold was released silently; reconciliation checked ${summary.checked}, changed ${summary.changed}: stored status ${final.status} (last source ${final.last_source}, reference ${final.reference_number ?? '-'})`,
    );
    const rfi = await this.rfiDemo.run(appUrl, user.userId);
    // With APP_API_KEYS set the caller endpoints want one (never printed: the variable's name only).
    const keyHeader = this.config.access.apiKeys.length ? ' -H "X-Api-Key: <one of APP_API_KEYS>"' : '';
    log(
      `demo done. Try: curl${keyHeader} ${appUrl}/payouts/${created.payout_id}  |  curl ${appUrl}/health/ready`,
    );
    log(`the app keeps running at ${appUrl}, the embedded sandbox behind it; stop both with Ctrl+C`);

    return {
      userId: user.userId,
      virtualAccountId: vaId,
      recipientId: recipient.recipient_id,
      payoutId: created.payout_id,
      heldStatus: held.status,
      finalStatus: final.status,
      rfi,
    };
  }

  private async waitForStatus(
    appUrl: string,
    payoutId: string,
    status: string,
    timeoutMs = 5000,
  ): Promise<PayoutResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const payout = await this.get(`${appUrl}/payouts/${payoutId}`);
      if (payout.status === status || Date.now() > deadline) return payout;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private async post<T>(url: string, idempotencyKey: string, body: unknown): Promise<T> {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        ...this.callerHeaders(),
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  }

  /** A client of the app's own API: it sends a key when APP_API_KEYS is set (the demo is open otherwise). */
  private callerHeaders(): Record<string, string> {
    const key = this.config.access.apiKeys[0];
    return key ? { [API_KEY_HEADER]: key } : {};
  }

  private async get(url: string): Promise<PayoutResponse> {
    const res = await fetch(url, { headers: this.callerHeaders() });
    if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
    return (await res.json()) as PayoutResponse;
  }
}
