/**
 * Validation before I/O (spec 2.5, 4.2, 4.3, 7.3, 8; provider-facts "RFIs"). Every function here is
 * pure or reads only local files; each problem is reported as a PartnerFieldError inside one
 * PartnerLocalValidationError, thrown before any network call.
 */
export * from './metadata.validator';
export * from './rfi-answer.validator';
export { checkIdentifierFormat, parseIsoDate, isAtLeastAge } from './answer-format.validator';
export type { CalendarDate } from './answer-format.validator';
export * from './file-sniffer';
export { sanitizeFileName, MAX_FILE_NAME_CHARS } from './file-name.sanitizer';
export * from './upload.constants';
export { openUploadSource, uploadSourceShapeErrors } from './upload-source.normaliser';
export type {
  OpenedUploadSource,
  StreamGuard,
  UploadBufferSource,
  UploadPathSource,
  UploadSource,
  UploadStreamSource,
} from './upload-source.normaliser';
export * from './upload.validator';
export * from './upload-form.builder';
export {
  collectCreateUserErrors,
  collectLivenessLinkErrors,
  collectUpdateUserErrors,
  collectVerificationErrors,
  validateCreateUserInput,
  validateUpdateUserInput,
  PARTNER_USER_FIELDS,
} from './user-input.validator';
export * from './recipient.validator';
