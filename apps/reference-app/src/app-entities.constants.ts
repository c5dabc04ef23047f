import { partnerTypeOrmEntities } from '@partner-payments/typeorm';
import { ApiVersionPinEntity } from './versioning/api-version-pin.entity';
import { DepositEntity } from './webhooks/projections/deposit.entity';
import { PartnerUserEntity } from './webhooks/projections/partner-user.entity';
import { PayoutEntity } from './payouts/payout.entity';
import { ReconciliationPassEntity } from './reconciliation/reconciliation-pass.entity';
import { VirtualAccountEntity } from './webhooks/projections/virtual-account.entity';
import { WebhookInboxEntity } from './webhooks/webhook-inbox.entity';

export {
  ApiVersionPinEntity,
  DepositEntity,
  PartnerUserEntity,
  PayoutEntity,
  ReconciliationPassEntity,
  VirtualAccountEntity,
  WebhookInboxEntity,
};

/**
 * Every entity of the app, for its DataSource (DatabaseModule.forRoot, openDataSource). Each entity
 * lives in the feature folder that owns its table; a feature you add lists its entities here and
 * its tables in a migration (database/migrations).
 */
export const APP_ENTITIES = [
  WebhookInboxEntity,
  PayoutEntity,
  PartnerUserEntity,
  VirtualAccountEntity,
  DepositEntity,
  ApiVersionPinEntity,
  ReconciliationPassEntity,
  // job_locks and partner_payout_requests, from @partner-payments/typeorm: added as any user adds them.
  ...partnerTypeOrmEntities,
];
