import { partnerTypeOrmEntities } from '@partner-payments/typeorm';
import { DepositEntity } from './webhooks/projections/deposit.entity';
import { PartnerUserEntity } from './webhooks/projections/partner-user.entity';
import { PayoutEntity } from './payouts/payout.entity';
import { ReconciliationPassEntity } from './reconciliation/reconciliation-pass.entity';
import { RfiItemEntity } from './rfis/rfi-item.entity';
import { RfiEntity } from './rfis/rfi.entity';
import { VirtualAccountEntity } from './webhooks/projections/virtual-account.entity';

export {
  DepositEntity,
  PartnerUserEntity,
  PayoutEntity,
  ReconciliationPassEntity,
  RfiEntity,
  RfiItemEntity,
  VirtualAccountEntity,
};

/**
 * Every entity of the app, for its DataSource (DatabaseModule.forRoot, openDataSource). Each entity
 * lives in the feature folder that owns its table; a feature you add lists its entities here and
 * its tables in a migration (database/migrations).
 */
export const APP_ENTITIES = [
  PayoutEntity,
  PartnerUserEntity,
  VirtualAccountEntity,
  DepositEntity,
  ReconciliationPassEntity,
  RfiEntity,
  RfiItemEntity,
  // webhook_inbox, webhook_inbox_tombstones, partner_payout_requests, api_version_pins and job_locks, from
  // @partner-payments/typeorm: added as any user adds them.
  ...partnerTypeOrmEntities,
];
