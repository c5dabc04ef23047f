import { ApiVersionPinEntity } from './api-version-pin.entity';
import { DepositEntity } from './deposit.entity';
import { JobLockEntity } from './job-lock.entity';
import { PartnerUserEntity } from './partner-user.entity';
import { PayoutRequestEntity } from './payout-request.entity';
import { PayoutEntity } from './payout.entity';
import { ReconciliationPassEntity } from './reconciliation-pass.entity';
import { VirtualAccountEntity } from './virtual-account.entity';
import { WebhookInboxEntity } from './webhook-inbox.entity';

export {
  ApiVersionPinEntity,
  DepositEntity,
  JobLockEntity,
  PartnerUserEntity,
  PayoutEntity,
  PayoutRequestEntity,
  ReconciliationPassEntity,
  VirtualAccountEntity,
  WebhookInboxEntity,
};

export const ENTITIES = [
  WebhookInboxEntity,
  PayoutEntity,
  PayoutRequestEntity,
  PartnerUserEntity,
  VirtualAccountEntity,
  DepositEntity,
  ApiVersionPinEntity,
  JobLockEntity,
  ReconciliationPassEntity,
];
