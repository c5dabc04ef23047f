/**
 * @partner-payments/nestjs/models: every resource shape and input type the client takes and returns
 * (spec 3, 4; the partner's field names kept), and the status rules a caller decides with. The main
 * shapes are also exported by the package root.
 */
export type { PartnerCallOptions, PartnerPage } from './models/common.model';
export type { PartnerMetadata } from './models/metadata.model';
export { canonicalPartnerStatus } from './models/status.util';
export { parsePartnerTimestamp } from './models/timestamp.util';
export type { PartnerUser } from './models/user.model';
export { isTerminalUserStatus } from './models/user.model';
export type {
  CreatePartnerUserInput,
  CreatePartnerIndividualUserInput,
  CreatePartnerBusinessUserInput,
  UpdatePartnerUserInput,
} from './models/user-input.model';
export type { PartnerRecipient, CreatePartnerRecipientInput } from './models/recipient.model';
export { maskAccountNumber } from './models/recipient.model';
export type {
  PartnerVirtualAccount,
  PartnerVirtualAccountBalance,
  CreatePartnerVirtualAccountInput,
  PartnerDeposit,
} from './models/virtual-account.model';
export {
  isVirtualAccountUsable,
  canReceiveFunds,
  isTerminalDepositStatus,
} from './models/virtual-account.model';
export type {
  PartnerPayout,
  PartnerPayoutPreview,
  CreatePartnerPayoutInput,
  PartnerPayoutStatusChange,
  PartnerPayoutStatusChangeReason,
} from './models/payout.model';
export { PartnerPayoutStatus, isTerminalPayoutStatus, decidePayoutStatusChange } from './models/payout.model';
export type { PartnerClientConfig } from './models/client-config.model';
export type {
  CreatePartnerCryptoPayoutInput,
  CreatePartnerQuotationInput,
  PartnerCryptoPayout,
  PartnerQuotation,
} from './models/quotation.model';
export type {
  PartnerBank,
  PartnerBankList,
  PartnerCountry,
  PartnerCountryList,
  PartnerCountrySubdivision,
} from './models/reference-data.model';
export { partnerPostalCodePattern } from './models/reference-data.model';
export type { Rfi, RfiListEntry, RfiItem, RfiAnswerInput } from './models/rfi.model';
export type { UploadSource } from './validation/upload/upload-source.util';
export { validateRfiAnswers } from './validation/rfi/rfi-answer.rules';
