/**
 * Upload limits (spec 8, spec 7.3 422 row; provider-facts "RFIs"). Overridable per call because the
 * per-call total and the default accepted types are weak facts (provider-facts: keep them configurable).
 */

/**
 * spec 8 "File size": 30 MB per file, decimal: 30,000,000 bytes (read as MiB, a 30,000,001 to
 * 31,457,280-byte file would pass here and fail at the partner). Refusing it locally sends nothing.
 */
export const MAX_UPLOAD_FILE_BYTES = 30_000_000;

/** spec 8 "Files per call": 20. */
export const MAX_UPLOAD_FILES_PER_CALL = 20;

/** provider-facts "RFIs" (weak): one upload call carries at most 100 MB in all (decimal, as above). */
export const MAX_UPLOAD_TOTAL_BYTES = 100_000_000;

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
