/**
 * Upload limits (spec 8, spec 7.3 422 row; provider-facts "RFIs"). Overridable per call because the
 * per-call total and the default accepted types are weak facts (provider-facts: keep them configurable).
 */

/**
 * spec 8 "File size": 30 MB per file. The contract does not say whether MB is 10^6 or 2^20 bytes;
 * we read it as MiB: 30 * 1024 * 1024 = 31,457,280 bytes. That is the larger reading, so the local
 * check never refuses a file the server would take; at worst a file between 30,000,000 and
 * 31,457,280 bytes reaches the server and gets its 422, and nothing is stored (spec 4.2 rule 2).
 */
export const MAX_UPLOAD_FILE_BYTES = 30 * 1024 * 1024;

/** spec 8 "Files per call": 20. */
export const MAX_UPLOAD_FILES_PER_CALL = 20;

/** provider-facts "RFIs" (weak): one upload call carries at most 100 MB in all (MiB, as above). */
export const MAX_UPLOAD_TOTAL_BYTES = 100 * 1024 * 1024;

/** provider-facts "RFIs": types accepted when answer_spec names none (pdf, jpeg, png, heic, webp). */
export const DEFAULT_ACCEPTED_MIME_TYPES: readonly string[] = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/heic',
  'image/webp',
];

export interface UploadLimits {
  /** Files per call. Default 20 (spec 8). */
  maxFiles: number;
  /** Bytes per file. Default 30 MiB (spec 8). */
  maxFileBytes: number;
  /** Bytes per call, all files together. Default 100 MiB (provider-facts, weak). */
  maxTotalBytes: number;
  /** Accepted types when a document item's answer_spec has no mime_types (provider-facts). */
  defaultMimeTypes: readonly string[];
}

export const DEFAULT_UPLOAD_LIMITS: Readonly<UploadLimits> = {
  maxFiles: MAX_UPLOAD_FILES_PER_CALL,
  maxFileBytes: MAX_UPLOAD_FILE_BYTES,
  maxTotalBytes: MAX_UPLOAD_TOTAL_BYTES,
  defaultMimeTypes: DEFAULT_ACCEPTED_MIME_TYPES,
};
