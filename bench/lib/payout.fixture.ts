/** One payout at the sandbox (user -> virtual account -> recipient -> payout), to read repeatedly. */
import type { PartnerPaymentsClient } from '@partner-payments/nestjs';
import { PartnerSandboxControlClient } from '@partner-payments/testing';
import { createVerifiedUser } from './partner.client';

export async function createPayout(client: PartnerPaymentsClient, sandboxBaseUrl: string): Promise<string> {
  const userId = await createVerifiedUser(client, 'payout', sandboxBaseUrl);
  const va = await client.virtualAccounts.create({ user_id: userId, type: 'US_BANK', bank: 'bank_a' });
  const vaId = String(va.virtual_account_id ?? va.id);
  // evidence §5: the account stays `activating` until the partner's staff open it, and a payout
  // draws on its balance: the sandbox's control opens and credits it, as the e2e fixtures do.
  await new PartnerSandboxControlClient(sandboxBaseUrl).fundVirtualAccount(vaId, '1000.00');
  const recipient = await client.recipients.create({
    user_id: userId,
    type: 'individual',
    first_name: 'Rita',
    last_name: 'Bench',
    email: 'rita.bench@example.com',
    address: { street_name: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
    account: {
      account_type: 'WIRE',
      routing_number: '021000021',
      account_number: '000123456789',
      type: 'checking',
      bank_name: 'Test Bank',
      bank_address: { street_name: '270 Park Ave', city: 'New York', state: 'NY', country: 'US' },
    },
  });
  const payout = await client.payouts.create(vaId, {
    amount: '10.00',
    currency: 'USD',
    recipient_id: recipient.recipient_id,
  });
  return payout.payoutId;
}
