import { PartnerWebhookInboxTombstoneEntity } from './inbox/webhook-inbox-tombstone.entity';
import { PartnerWebhookInboxEntity } from './inbox/webhook-inbox.entity';
import { PartnerJobLockEntity } from './job-locks/job-lock.entity';
import { PartnerJobLocks1765100000000 } from './migrations/1765100000000-partner-job-locks.migration';
import { PartnerWebhookInbox1765200000000 } from './migrations/1765200000000-partner-webhook-inbox.migration';
import { PartnerPayoutRequests1765210000000 } from './migrations/1765210000000-partner-payout-requests.migration';
import { PartnerVersionPins1765220000000 } from './migrations/1765220000000-partner-version-pins.migration';
import { PartnerPayoutRequestEntity } from './payouts/payout-request.entity';
import { PartnerVersionPinEntity } from './version-pin/version-pin.entity';

/** DI token of the options as given to forRoot / forRootAsync's factory. */
export const PARTNER_TYPEORM_OPTIONS = Symbol('PARTNER_TYPEORM_OPTIONS');
/** DI token of the resolved options (defaults merged, validated at boot). */
export const PARTNER_TYPEORM_RESOLVED_OPTIONS = Symbol('PARTNER_TYPEORM_RESOLVED_OPTIONS');

/** The package's entities: add them to your DataSource's `entities`. */
export const partnerTypeOrmEntities = [
  PartnerJobLockEntity,
  PartnerWebhookInboxEntity,
  PartnerWebhookInboxTombstoneEntity,
  PartnerPayoutRequestEntity,
  PartnerVersionPinEntity,
];

/** The package's migrations, in order: add them to your DataSource's `migrations` beside your own. */
export const partnerTypeOrmMigrations = [
  PartnerJobLocks1765100000000,
  PartnerWebhookInbox1765200000000,
  PartnerPayoutRequests1765210000000,
  PartnerVersionPins1765220000000,
];
