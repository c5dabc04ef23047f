/**
 * What `partner-sandbox trigger <event>` does to make each event happen. Where a real flow exists
 * the event comes from it: the resources are made through the partner API (as an app makes them)
 * and the partner's staff and clock are played by the control API, so the event carries the ids,
 * amounts and statuses of real resources and is sent by the sandbox's own emitter, signed. Only the
 * rfi.* events, which the partner sends on newer versions only (evidence §9), are emitted through
 * `/__control/emitEvent`, with the fields of an RFI raised for the purpose.
 */
import type { PartnerSandboxControlClient } from '../control/control.client';
import type { PayoutStepName } from '../control/control-inputs.types';
import { fixtureRecipient, fixtureUser } from '../conformance/probe-bodies.util';
import { SandboxCliError, type SandboxApiClient } from './sandbox-api.client';

export interface TriggerFlowOptions {
  /** An existing user to build on (`--user-id`); default a new user made for the purpose. */
  userId?: string;
  /** The account's client UUID: its configuration names the banks a virtual account may use (spec 2.4). */
  clientUuid: string;
}

/** The id a create answered under `field`; a create that answers none stops the flow, naming it. */
async function createdId(answer: Promise<Record<string, unknown>>, field: string, what: string) {
  const id = (await answer)[field];
  if (typeof id !== 'string') throw new SandboxCliError(`${what} answered no ${field}`);
  return id;
}

/** The resources one trigger needs, each made once, on first need. */
export class TriggerFlow {
  private readonly made = new Map<string, Promise<unknown>>();
  private readonly tag = `partner-sandbox-trigger-${Date.now()}`;

  constructor(
    readonly api: SandboxApiClient,
    readonly control: PartnerSandboxControlClient,
    private readonly options: TriggerFlowOptions,
  ) {}

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.made.has(key)) this.made.set(key, make());
    return this.made.get(key) as Promise<T>;
  }

  /** A user made now, whatever `--user-id` says (for events only a new user produces). */
  newUser(): Promise<string> {
    return this.once('newUser', async () => {
      const body = {
        ...fixtureUser(this.tag),
        first_name: 'Trigger',
        last_name: 'Event',
        email: 'trigger.event@example.com',
        metadata: { source: this.tag },
      };
      return createdId(this.api.call('POST', '/v1/users', body), 'id', 'POST /v1/users');
    });
  }

  user(): Promise<string> {
    return this.options.userId ? Promise.resolve(this.options.userId) : this.newUser();
  }

  async userStatus(userId: string): Promise<string> {
    return String((await this.api.call<{ status?: unknown }>('GET', `/v1/users/${userId}`)).status);
  }

  /** The user, VERIFIED by the partner's staff when not yet (evidence §3: verified by hand). */
  verifiedUser(): Promise<string> {
    return this.once('verifiedUser', async () => {
      const userId = await this.user();
      if ((await this.userStatus(userId)) !== 'VERIFIED')
        await this.control.setUserVerificationOutcome(userId, 'approved');
      return userId;
    });
  }

  /** The user, VERIFIED now: refused for one that already is (there is no transition left to send). */
  async verifyNow(): Promise<string> {
    const userId = await this.user();
    if ((await this.userStatus(userId)) === 'VERIFIED')
      throw new SandboxCliError(`user ${userId} is VERIFIED already: leave out --user-id to make a new one`);
    return this.verifiedUser();
  }

  /** Whether the sandbox already sent `event` about `rfiId` (it does with its opt-in rfiEvents). */
  async sentFor(event: string, rfiId: string): Promise<boolean> {
    await this.control.flushWebhooks();
    return (await this.control.deliveries()).some((d) => d.event === event && d.body.includes(rfiId));
  }

  /** A new US_BANK virtual account of the verified user at the account's first authorized bank. */
  virtualAccount(): Promise<string> {
    return this.once('virtualAccount', async () => {
      const userId = await this.verifiedUser();
      const config = await this.api.call<{ data?: { authorizedBanks?: unknown } }>(
        'GET',
        `/v1/clients/${this.options.clientUuid}`,
      );
      const banks = config.data?.authorizedBanks;
      const bank = Array.isArray(banks) && typeof banks[0] === 'string' ? banks[0] : undefined;
      if (!bank)
        throw new SandboxCliError(
          'the account authorizes no bank, so no virtual account can be opened (spec 2.4: none by default): ' +
            'start the sandbox with --authorized-banks bank_a, or POST /__control/setAuthorizedBanks {"args":[["bank_a"]]}',
        );
      const body = { user_id: userId, type: 'US_BANK', bank, metadata: { source: this.tag } };
      const created = this.api.call('POST', '/v1/virtual-accounts', body);
      return createdId(created, 'virtual_account_id', 'POST /v1/virtual-accounts');
    });
  }

  /** The virtual account opened by the partner's staff and credited with a completed deposit. */
  fundedVirtualAccount(): Promise<{ id: string; depositId: string }> {
    return this.once('funded', async () => {
      const id = await this.virtualAccount();
      const { depositId } = await this.control.fundVirtualAccount(id, '250.00');
      return { id, depositId };
    });
  }

  /** A WIRE recipient of the virtual account's user (a payout goes to one, spec 4.4). */
  recipient(): Promise<string> {
    return this.once('recipient', async () => {
      const body = {
        ...fixtureRecipient(await this.verifiedUser(), this.tag),
        metadata: { source: this.tag },
      };
      return createdId(this.api.call('POST', '/v1/recipients', body), 'recipient_id', 'POST /v1/recipients');
    });
  }

  /** A payout made for the purpose from the funded account (sends payout.created), then `steps`. */
  async payout(steps: PayoutStepName[]): Promise<string> {
    const payoutId = await this.once('payout', async () => {
      const { id } = await this.fundedVirtualAccount();
      const body = { recipient_id: await this.recipient(), amount: '10.00', currency: 'USD' };
      const path = `/v1/virtual-accounts/${id}/payout`;
      return createdId(this.api.call('POST', path, body), 'id', `POST ${path}`);
    });
    if (steps.length > 0) await this.control.advancePayout(payoutId, steps);
    return payoutId;
  }

  /** An RFI the partner's staff raise on the user (only the partner raises RFIs, evidence §7). */
  rfi(): Promise<{ rfiId: string; userId: string }> {
    return this.once('rfi', async () => {
      const seeded = await this.control.seedRfi({ userId: await this.user() });
      return { rfiId: seeded.rfiId, userId: seeded.userId };
    });
  }
}

type Trigger = (flow: TriggerFlow) => Promise<string>;

const payout =
  (...steps: PayoutStepName[]): Trigger =>
  async (flow) =>
    `payout ${await flow.payout(steps)}`;

/** Each event `trigger` can make, and how; the answer names the resource it is about. */
export const TRIGGERS: Record<string, Trigger> = {
  'user.created': async (flow) => `user ${await flow.newUser()}`,
  // A new user starts verification at once when its data completes a product (evidence §3);
  // a given user is walked forward by the staff's decision instead.
  'user.status_changed': async (flow) => `user ${await flow.verifyNow()}`,
  'user.updated': async (flow) => {
    const userId = await flow.user();
    const phone = `+1555${String(Date.now()).slice(-7)}`;
    await flow.api.call('PUT', `/v1/users/${userId}`, { phone });
    return `user ${userId} (phone changed)`;
  },
  'user.verification.accepted': async (flow) => `user ${await flow.verifyNow()}`,
  'user.verification.failed': async (flow) => {
    const userId = await flow.user();
    await flow.control.setUserVerificationOutcome(userId, 'declined', { reasons: ['document_unreadable'] });
    return `user ${userId}`;
  },
  'user.liveness_completed': async (flow) => {
    const userId = await flow.user();
    await flow.control.completeLiveness(userId);
    return `user ${userId}`;
  },
  'virtual_account.created': async (flow) => `virtual account ${await flow.virtualAccount()}`,
  'virtual_account.deposit_funds_received': async (flow) => {
    const { id, depositId } = await flow.fundedVirtualAccount();
    return `deposit ${depositId} to virtual account ${id}`;
  },
  'virtual_account.microdeposit_funds_received': async (flow) => {
    const id = await flow.virtualAccount();
    await flow.control.provisionVirtualAccount(id);
    const { depositId } = await flow.control.simulateDeposit(id, { microdeposit: true, rail: 'ACH' });
    return `microdeposit ${depositId} to virtual account ${id}`;
  },
  // Newer versions only (evidence §9): sent only when asked, as here.
  'virtual_account.deposit_funds_refunded': async (flow) => {
    const { id, depositId } = await flow.fundedVirtualAccount();
    await flow.control.refundDeposit(depositId, { event: true });
    return `deposit ${depositId} to virtual account ${id} (refunded)`;
  },
  'payout.created': payout(),
  'payout.pending': payout('PENDING'),
  'payout.processing': payout('PENDING', 'PROCESSING'),
  'payout.completed': payout('PENDING', 'PROCESSING', 'COMPLETED'),
  'payout.failed': payout('PENDING', 'FAILED'),
  'payout.returned': payout('PENDING', 'PROCESSING', 'COMPLETED', 'RETURNED'),
  // spec 6.4.7: a fiat rail's transition sends the granular event and payout.status_changed.
  'payout.status_changed': payout('PENDING'),
  // The sandbox sends rfi.* only with its opt-in rfiEvents: the body its emitter would build.
  'rfi.created': async (flow) => {
    const { rfiId, userId } = await flow.rfi();
    if (!(await flow.sentFor('rfi.created', rfiId)))
      await flow.control.emitEvent('rfi.created', { rfi_id: rfiId, user_id: userId, status: 'pending' });
    return `rfi ${rfiId}`;
  },
  'rfi.not_resolved': async (flow) => {
    const { rfiId, userId } = await flow.rfi();
    await flow.control.setRfiStatus(rfiId, 'not_resolved', 'expired');
    const data = { rfi_id: rfiId, user_id: userId, to_status: 'not_resolved', resolution_reason: 'expired' };
    if (!(await flow.sentFor('rfi.not_resolved', rfiId)))
      await flow.control.emitEvent('rfi.not_resolved', data);
    return `rfi ${rfiId}`;
  },
};
