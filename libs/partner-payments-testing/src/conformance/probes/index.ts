/** The shipped probe set, in run order (the version pin probe last: it is the only one touching account state). */
import type { ConformanceProbe } from '../probe.types';
import { AUTH_GATEWAY_PROBES } from './auth-gateway.probes';
import { DEPOSIT_PROBES } from './virtual-accounts/deposits.probes';
import { GATEWAY_CAPTURE_PROBES } from './gateway-captures.probes';
import { IDEMPOTENCY_PROBES } from './idempotency.probes';
import { PAYOUT_PROBES } from './virtual-accounts/payouts.probes';
import { RECIPIENT_CAPTURE_PROBES } from './recipients/recipient-captures.probes';
import { RECIPIENT_RACE_PROBES } from './recipients/recipient-races.probes';
import { RECIPIENT_RAIL_PROBES } from './recipients/recipient-rails.probes';
import { RECIPIENT_READ_PROBES } from './recipients/recipient-reads.probes';
import { RECIPIENTS_PROBES } from './recipients/recipients.probes';
import { REFERENCE_PROBES } from './reference.probes';
import { RFI_DOCUMENT_PROBES } from './rfis/rfi-documents.probes';
import { RFI_PROBES } from './rfis/rfis.probes';
import { UNLISTED_ROUTE_PROBES } from './unlisted.probes';
import { UPLOAD_PROBES } from './rfis/uploads.probes';
import { USER_CAPTURE_PROBES } from './users/user-captures.probes';
import { USER_LIFECYCLE_PROBES } from './users/user-lifecycle.probes';
import { USER_UPDATE_PROBES } from './users/user-updates.probes';
import { VA_FUNDS_PROBES } from './virtual-accounts/va-funds.probes';
import { VA_REFUSAL_PROBES } from './virtual-accounts/va-refusals.probes';
import { VIRTUAL_ACCOUNT_PROBES } from './virtual-accounts/virtual-accounts.probes';
import { USERS_PROBES } from './users/users.probes';
import { CROSS_TENANT_PROBES } from './users/cross-tenant.probes';
import { WEBHOOK_DELIVERY_PROBES } from './webhooks/user-created.probes';
import { WEBHOOK_REGISTRATION_PROBES } from './webhooks/registration.probes';

const versionPin = REFERENCE_PROBES.filter((p) => p.id === 'versioning.upgrade-repeat');

/** Every shipped probe, in run order; ids are unique (`area.behaviour`). */
export const CONFORMANCE_PROBES: readonly ConformanceProbe[] = [
  ...AUTH_GATEWAY_PROBES,
  ...GATEWAY_CAPTURE_PROBES,
  ...USERS_PROBES,
  ...CROSS_TENANT_PROBES,
  ...USER_UPDATE_PROBES,
  ...USER_LIFECYCLE_PROBES,
  ...USER_CAPTURE_PROBES,
  ...WEBHOOK_DELIVERY_PROBES,
  ...WEBHOOK_REGISTRATION_PROBES,
  ...RECIPIENTS_PROBES,
  ...RECIPIENT_READ_PROBES,
  ...RECIPIENT_RAIL_PROBES,
  ...RECIPIENT_CAPTURE_PROBES,
  ...RECIPIENT_RACE_PROBES,
  ...REFERENCE_PROBES.filter((p) => !versionPin.includes(p)),
  ...VA_REFUSAL_PROBES,
  ...VIRTUAL_ACCOUNT_PROBES,
  ...PAYOUT_PROBES,
  ...UNLISTED_ROUTE_PROBES,
  ...VA_FUNDS_PROBES,
  ...DEPOSIT_PROBES,
  ...IDEMPOTENCY_PROBES,
  ...RFI_PROBES,
  ...UPLOAD_PROBES,
  ...RFI_DOCUMENT_PROBES,
  ...versionPin,
];

const ids = new Set<string>();
for (const probe of CONFORMANCE_PROBES) {
  if (ids.has(probe.id)) throw new Error(`duplicate conformance probe id ${probe.id}`);
  ids.add(probe.id);
}
