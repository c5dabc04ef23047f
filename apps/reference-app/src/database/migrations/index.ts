import { partnerTypeOrmMigrations } from '@partner-payments/typeorm';
import { InitialSchema1763794800000 } from './1763794800000-initial-schema.migration';
import { JobCheckpoint1763881400000 } from './1763881400000-job-checkpoint.migration';
import { PayoutRequestRedrive1764200000000 } from './1764200000000-payout-request-redrive.migration';
import { InboxEventKey1764300000000 } from './1764300000000-inbox-event-key.migration';
import { SharedReconciliation1764400000000 } from './1764400000000-shared-reconciliation.migration';
import { InboxPendingIndex1764500000000 } from './1764500000000-inbox-pending-index.migration';
import { PayoutClaimsHot1764600000000 } from './1764600000000-payout-claims-hot.migration';
import { InboxStateIndexes1764700000000 } from './1764700000000-inbox-state-indexes.migration';
import { PayoutRequestMemo1764800000000 } from './1764800000000-payout-request-memo.migration';
import { InboxTombstones1764900000000 } from './1764900000000-inbox-tombstones.migration';
import { PinAccountDigest1765000000000 } from './1765000000000-pin-account-digest.migration';
import { PayoutRequestsToPackage1765300000000 } from './1765300000000-payout-requests-to-package.migration';
import { Rfis1765400000000 } from './1765400000000-rfis.migration';

/**
 * Checked-in migrations and @partner-payments/typeorm's, run in timestamp order: the package's
 * job_locks (it upgrades the table the initial schema made), its inbox tables (which the
 * migrations above made, so it leaves them as they are) and partner_payout_requests; then the
 * app's move of its payout requests into that table, then the RFI projection. Run at start
 * (openDataSource); `synchronize` is never used.
 */
export const MIGRATIONS = [
  InitialSchema1763794800000,
  JobCheckpoint1763881400000,
  PayoutRequestRedrive1764200000000,
  InboxEventKey1764300000000,
  SharedReconciliation1764400000000,
  InboxPendingIndex1764500000000,
  PayoutClaimsHot1764600000000,
  InboxStateIndexes1764700000000,
  PayoutRequestMemo1764800000000,
  InboxTombstones1764900000000,
  PinAccountDigest1765000000000,
  Rfis1765400000000,
  ...partnerTypeOrmMigrations,
  // After the package's: it copies payout_requests into the package's partner_payout_requests.
  PayoutRequestsToPackage1765300000000,
];
