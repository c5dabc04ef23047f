/**
 * Partner resources made ready for the sandbox suites: a verified user, a funded virtual account
 * and a WIRE recipient (through the sandbox's control API, standing in for the partner's staff),
 * and the per-test world of the payout suites.
 */
import { PartnerSandboxControlClient } from '@partner-payments/testing';
import { individual, wireAccount, wireRecipient } from '../setup/partner-inputs.fixture';
import { startWorld, stopWorld, type Api, type World } from './sandbox.fixture';

/**
 * POST /v1/users, then the partner's staff (the control API) verify it: the partner's sandbox
 * stops in REVIEW (evidence §3), so nothing here assumes instant verification. Answers the id.
 */
export async function createVerifiedUser(api: Api, body: object = individual()): Promise<string> {
  const user = await api.call('POST', '/v1/users', { body });
  if (user.status !== 201) throw new Error(`user create failed: ${user.status} ${user.text}`);
  const status = await new PartnerSandboxControlClient(api.base).setUserVerificationOutcome(
    user.body.id,
    'approved',
  );
  if (status !== 'VERIFIED') throw new Error(`user ${user.body.id} is ${status}, not VERIFIED`);
  return user.body.id as string;
}

/** user (VERIFIED through the control) → recipient (WIRE) → virtual account, provisioned and funded (10,000.00) through the control; answers their ids. */
export async function fundedSetup(api: Api, recipientAccount: Record<string, unknown> = wireAccount()) {
  const userId = await createVerifiedUser(api);
  const recipient = await api.call('POST', '/v1/recipients', {
    body: wireRecipient(userId, { account: recipientAccount }),
  });
  const va = await api.call('POST', '/v1/virtual-accounts', {
    body: { user_id: userId, type: 'US_BANK', bank: 'bank_a' },
  });
  if (recipient.status !== 201 || va.status !== 201) {
    throw new Error(`setup failed: ${recipient.status} ${va.status} ${va.text}`);
  }
  // evidence §5: the account stays `activating` with no account number until the partner's staff
  // open it, and a payout draws on its balance: the control plays both.
  await new PartnerSandboxControlClient(api.base).fundVirtualAccount(va.body.virtual_account_id as string);
  return {
    userId,
    recipientId: recipient.body.recipient_id as string,
    vaId: va.body.virtual_account_id as string,
  };
}

/**
 * A new, funded account of the user at the ACT bank (bank_d): a WIRE payout from it is on the ACT
 * rail (ACT is a bank of the partner, not an account type, evidence §5, §6). One per user and bank.
 */
export async function fundedActBankAccount(api: Api, userId: string): Promise<string> {
  const va = await api.call('POST', '/v1/virtual-accounts', {
    body: { user_id: userId, type: 'US_BANK', bank: 'bank_d' },
  });
  if (va.status !== 201) throw new Error(`ACT bank account: ${va.status} ${va.text}`);
  const vaId = va.body.virtual_account_id as string;
  await new PartnerSandboxControlClient(api.base).fundVirtualAccount(vaId);
  return vaId;
}

/** A payout of `amount` USD from account `vaId` to `recipientId`, with the memo the ACT bank requires. */
export function payOutWithMemo(api: Api, vaId: string, recipientId: string, amount: string) {
  return api.call('POST', `/v1/virtual-accounts/${vaId}/payout`, {
    body: { amount, currency: 'USD', recipient_id: recipientId, extra_info: { memo: 'inv 43' } },
  });
}

// Shared by the payout suites (payouts, payout-lifecycle).
export interface PayoutIds {
  userId: string;
  recipientId: string;
  vaId: string;
}
export interface PayoutWorld {
  world: World;
  ids: PayoutIds;
}

/**
 * Per test: a fresh sandbox, a verified user with a funded virtual account and a WIRE recipient,
 * setup events cleared; `bind` hands it to the suite. Answers the calls the suites repeat: a payout
 * of 100.00 USD to that recipient (spec 3.4), and the data of the received flat events of a name.
 */
export function usePayoutWorld(bind: (current: PayoutWorld) => void) {
  let current: PayoutWorld | undefined;
  beforeEach(async () => {
    const world = await startWorld();
    const ids = await fundedSetup(world.api);
    await world.sandbox.control.flushWebhooks();
    world.receiver.received.length = 0;
    current = { world, ids };
    bind(current);
  });
  afterEach(() => stopWorld(current?.world));
  const now = (): PayoutWorld => {
    if (!current) throw new Error('no payout world outside a test');
    return current;
  };
  return {
    create: (extra: Record<string, unknown> = {}, key?: string) =>
      now().world.api.call('POST', `/v1/virtual-accounts/${now().ids.vaId}/payout`, {
        body: {
          amount: '100.00',
          currency: 'USD',
          recipient_id: now().ids.recipientId,
          extra_info: { memo: 'inv 42' },
          ...extra,
        },
        idempotencyKey: key,
      }),
    flat: (name: string) =>
      now()
        .world.receiver.events(name)
        .map((e) => e.body.data),
  };
}
