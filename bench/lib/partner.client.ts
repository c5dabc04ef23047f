/** A client for the sandbox with its fixed test credentials; quiet, so output carries no noise. */
import {
  createPartnerPaymentsClient,
  type PartnerPaymentsClient,
  type PartnerPaymentsModuleOptions,
} from '@partner-payments/nestjs';
import { SANDBOX_DEFAULTS } from '@partner-payments/testing';

const silent = { log() {}, error() {}, warn() {}, debug() {}, verbose() {} };

export function sandboxClient(
  baseUrl: string,
  overrides: Partial<PartnerPaymentsModuleOptions> = {},
): PartnerPaymentsClient {
  return createPartnerPaymentsClient({
    baseUrl,
    environment: 'sandbox',
    apiKey: SANDBOX_DEFAULTS.apiKey,
    clientId: SANDBOX_DEFAULTS.clientId,
    password: SANDBOX_DEFAULTS.password,
    clientUuid: SANDBOX_DEFAULTS.clientUuid,
    logger: silent,
    ...overrides,
  });
}

/** A verified individual user (no source_of_funds would be declined by the sandbox). */
export async function createVerifiedUser(client: PartnerPaymentsClient, tag: string): Promise<string> {
  const user = await client.users.create({
    type: 'individual',
    first_name: 'Bench',
    last_name: tag,
    email: `bench+${tag}@example.com`,
    source_of_funds: 'salary',
  });
  return user.userId;
}
