/** A client for the sandbox with its fixed test credentials; quiet, so output carries no noise. */
import {
  createPartnerPaymentsClient,
  type PartnerPaymentsClient,
  type PartnerPaymentsModuleOptions,
} from '@partner-payments/nestjs';
import { SANDBOX_DEFAULTS, PartnerSandboxControlClient } from '@partner-payments/testing';

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

/**
 * A verified individual user: created with the partner's flat fields, then verified by the
 * sandbox's control API (`baseUrl`), as the partner's staff would; the partner's sandbox never
 * verifies on its own (evidence §3).
 */
export async function createVerifiedUser(
  client: PartnerPaymentsClient,
  tag: string,
  baseUrl: string,
): Promise<string> {
  const user = await client.users.create({
    type: 'individual',
    first_name: 'Bench',
    last_name: tag,
    email: `bench+${tag}@example.com`,
    birth_date: '1990-01-01',
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
  await new PartnerSandboxControlClient(baseUrl).setUserVerificationOutcome(user.userId, 'approved');
  return user.userId;
}
