/**
 * @partner-payments/nestjs/models: every resource shape and input type the client takes and returns
 * (spec 3, 4; the partner's field names kept), and the status rules a caller decides with. The main
 * shapes are also exported by the package root.
 */
export type { PartnerCallOptions, PartnerPage } from './resources/shared/common.model';
export type { PartnerMetadata } from './resources/shared/metadata.model';
export { canonicalPartnerStatus } from './resources/shared/status.util';
export { parsePartnerTimestamp } from './resources/shared/timestamp.util';
export type { PartnerUser } from './resources/users/user.model';
export { isTerminalUserStatus } from './resources/users/user.model';
export type {
  CreatePartnerUserInput,
  CreatePartnerIndividualUserInput,
  CreatePartnerBusinessUserInput,
  UpdatePartnerUserInput,
} from './resources/users/user-input.model';
export type { PartnerRecipient, CreatePartnerRecipientInput } from './resources/recipients/recipient.model';
export { maskAccountNumber } from './resources/recipients/recipient.model';
export type {
  PartnerVirtualAccount,
  PartnerVirtualAccountBalance,
  CreatePartnerVirtualAccountInput,
  PartnerDeposit,
} from './resources/virtual-accounts/virtual-account.model';
export {
  isVirtualAccountUsable,
  canReceiveFunds,
  isTerminalDepositStatus,
} from './resources/virtual-accounts/virtual-account.model';
export type {
  PartnerPayout,
  PartnerPayoutPreview,
  CreatePartnerPayoutInput,
  PartnerPayoutStatusChange,
  PartnerPayoutStatusChangeReason,
} from './resources/payouts/payout.model';
export {
  PartnerPayoutStatus,
  isTerminalPayoutStatus,
  decidePayoutStatusChange,
} from './resources/payouts/payout.model';
export type { PartnerClientConfig } from './resources/client-config/client-config.model';
export type {
  CreatePartnerCryptoPayoutInput,
  CreatePartnerQuotationInput,
  PartnerCryptoPayout,
  PartnerQuotation,
} from './resources/quotations/quotation.model';
export type {
  PartnerBank,
  PartnerBankList,
  PartnerCountry,
  PartnerCountryList,
  PartnerCountrySubdivision,
} from './resources/reference-data/reference-data.model';
export { partnerPostalCodePattern } from './resources/reference-data/reference-data.model';
export type { Rfi, RfiListEntry, RfiItem, RfiAnswerInput } from './resources/rfis/rfi.model';
export type { UploadSource } from './resources/rfis/upload/upload-source.util';
export { validateRfiAnswers } from './resources/rfis/rfi-answer.rules';
