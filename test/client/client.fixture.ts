/**
 * Helpers for the client e2e suites: a sandbox on a real socket and a PartnerPaymentsClient built
 * exactly as the module builds it (same graph), minus Nest.
 */
import type { LoggerService } from '@nestjs/common';
import {
  startPartnerSandbox,
  type PartnerSandbox,
  type PartnerSandboxOptions,
} from '@partner-payments/testing';
import type { PartnerPaymentsModuleOptions } from '@partner-payments/nestjs';
import type { PartnerClientGraph } from '../../libs/partner-payments/src/client-graph.util';
import { partnerClientGraphFor } from '../setup/funded-account.fixture';
import { business, individual, usAddress, wireAccount, wireRecipient } from '../setup/partner-inputs.fixture';

export const silentLogger: LoggerService = {
  log: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export interface ClientWorld {
  sandbox: PartnerSandbox;
  graph: PartnerClientGraph;
}

export async function startClientWorld(
  sandboxOptions: PartnerSandboxOptions = {},
  clientOptions: Partial<PartnerPaymentsModuleOptions> = {},
): Promise<ClientWorld> {
  // The suites open virtual accounts at all four banks; none is authorized by default (spec 2.4).
  const banks = ['bank_a', 'bank_b', 'bank_c', 'bank_d'];
  // Users reach REVIEW at once here (the partner takes ~10 s, the sandbox's default): these suites test
  // the code's logic, not its patience.
  const sandbox = await startPartnerSandbox({
    quiet: true,
    authorizedBanks: banks,
    verificationDelayMs: 0,
    ...sandboxOptions,
  });
  const graph = partnerClientGraphFor(sandbox, {
    logger: silentLogger,
    retry: { initialDelayMs: 5, maxDelayMs: 50, minDelayMs: 1, maxRetryAfterMs: 1500 },
    ...clientOptions,
  });
  return { sandbox, graph };
}

export async function stopClientWorld(world: ClientWorld | undefined): Promise<void> {
  if (world) await world.sandbox.close();
}

export { business, individual, usAddress, wireAccount, wireRecipient };

/**
 * A user through the client, verified by the partner's staff (the sandbox's control API): the
 * partner's sandbox stops in REVIEW (evidence §3), so the tests never assume instant verification.
 */
export async function createVerifiedUser(world: ClientWorld): Promise<string> {
  const user = await world.graph.client.users.create(individual());
  await world.sandbox.control.setUserVerificationOutcome(user.userId, 'approved');
  return user.userId;
}

/** user (verified through the control) → recipient (WIRE) → virtual account (provisioned and funded through the control). */
export async function fundedSetup(world: ClientWorld) {
  const { client } = world.graph;
  const user = { userId: await createVerifiedUser(world) };
  const recipient = await client.recipients.create(wireRecipient(user.userId));
  const va = await client.virtualAccounts.create({ user_id: user.userId, bank: 'bank_a' });
  // evidence §5: activating until the partner's staff open it; payouts draw on the balance.
  await world.sandbox.control.fundVirtualAccount(String(va.virtual_account_id ?? va.id));
  return {
    userId: user.userId,
    recipientId: recipient.recipient_id,
    vaId: String(va.virtual_account_id ?? va.id),
  };
}
