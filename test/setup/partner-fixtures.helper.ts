/** A verified user with a virtual account and a WIRE recipient, created through the app's own partner client. */
import {
  PartnerPayoutsService,
  PartnerRecipientsService,
  PartnerUsersService,
  PartnerVirtualAccountsService,
} from '@partner-payments/nestjs';
import { SandboxControlClient } from '@partner-payments/testing';
import type { RunningApp } from '../../apps/reference-app/src/app.bootstrap';
import { individual } from './partner-inputs.helper';

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

/** The partner services the fixture calls: the app's (RunningApp) or a standalone client's. */
export interface PartnerServices {
  users: Pick<PartnerUsersService, 'create'>;
  virtualAccounts: Pick<PartnerVirtualAccountsService, 'create'>;
  recipients: Pick<PartnerRecipientsService, 'create'>;
  payouts: Pick<PartnerPayoutsService, 'create'>;
}

export async function createFundedAccount(running: RunningApp, tag = 'e2e'): Promise<FundedAccount> {
  return createFundedAccountWith(
    {
      users: running.app.get(PartnerUsersService),
      virtualAccounts: running.app.get(PartnerVirtualAccountsService),
      recipients: running.app.get(PartnerRecipientsService),
      payouts: running.app.get(PartnerPayoutsService),
    },
    running.connection.baseUrl,
    tag,
  );
}

/** The same through any client (`sandboxBaseUrl`: where the sandbox's control API is). */
export async function createFundedAccountWith(
  { users, virtualAccounts: vas, recipients, payouts }: PartnerServices,
  sandboxBaseUrl: string,
  tag = 'e2e',
): Promise<FundedAccount> {
  const user = await users.create(
    individual({ first_name: 'Test', last_name: tag, email: `${tag}@example.com`, metadata: { tag } }),
  );
  // The partner's sandbox stops in REVIEW (evidence §3): its staff verify; here the control API does.
  const control = new SandboxControlClient(sandboxBaseUrl);
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
