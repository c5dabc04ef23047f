import { Readable } from 'node:stream';
import { PartnerFieldError, PartnerLocalValidationError } from '../../../errors/partner.errors';
import { RfiItem } from '../rfi.model';
import { checkDeclaredType, isMimeTypeAccepted, sniffFileType } from './file-sniff.util';
import { sanitizeFileName, uploadFileNameErrors } from './file-name.util';
import { DEFAULT_UPLOAD_LIMITS, UploadLimits } from './upload.constants';
import {
  OpenedUploadSource,
  openUploadSource,
  UploadSource,
  uploadSourceShapeErrors,
} from './upload-source.util';
import { describeType } from '../../shared/validation.util';

/**
 * Document upload rules checked before POST /v1/rfis/{rfi_id}/items/{item_id}/documents (spec 4.2,
 * the 422 row of 7.3, spec 8; provider-facts "RFIs"). The server stores nothing when one rule
 * breaks (4.2 rule 2), so every file is checked and all problems are reported at once.
 */

/** One multipart part, ready for form-data (see appendUploadParts). */
export interface PreparedUploadPart {
  /** spec 4.2: the field is `files`, repeated per file */
  fieldName: 'files';
  /** sanitised for the part header: no path, no control characters, no double quotes */
  fileName: string;
  /** the declared type, canonicalised (image/jpg -> image/jpeg); the sniffed type when a path gave none */
  contentType: string;
  /** exact byte length when known (then the body can carry a Content-Length); undefined for a stream of unknown length */
  knownLength: number | undefined;
  /** what the first bytes are, when recognised */
  sniffedType: string | undefined;
  /** false for caller streams: the part can be sent once, so an upload built from them must not be retried */
  replayable: boolean;
  /**
   * The body. Paths are streamed from disk and buffers wrapped; sizes that were not known up front are
   * enforced while streaming (the stream errors with a PartnerLocalValidationError past the limit).
   */
  stream(): Readable;
}

/** Accepted types for a document item: answer_spec.mime_types, else the provider-facts default set. */
export function acceptedMimeTypesFor(
  item: RfiItem,
  limits: Pick<UploadLimits, 'defaultMimeTypes'>,
): readonly string[] {
  const declared = item.answer_type === 'document' ? item.answer_spec?.mime_types : undefined;
  if (Array.isArray(declared)) {
    const names = declared.filter((m): m is string => typeof m === 'string');
    if (names.length > 0) return names;
  }
  return limits.defaultMimeTypes;
}

/** Rules that need only the file count and the item (no I/O). */
export function collectUploadCountErrors(
  fileCount: number,
  item: RfiItem | undefined,
  limits: Pick<UploadLimits, 'maxFiles'> = DEFAULT_UPLOAD_LIMITS,
): PartnerFieldError[] {
  const errors: PartnerFieldError[] = [];
  // spec 7.3: "an empty multipart body" is a 422; spec 8: at most 20 files per call.
  if (fileCount === 0) errors.push({ field: 'files', message: 'at least one file is required' });
  if (fileCount > limits.maxFiles) {
    errors.push({ field: 'files', message: `at most ${limits.maxFiles} files per call (got ${fileCount})` });
  }
  if (item && item.answer_type !== 'document') {
    // spec 7.3: "an item that asked for something other than files"; answer it with PATCH (4.3).
    errors.push({
      field: 'item_id',
      message: `is a ${item.answer_type} item, not a document item: answer it with PATCH`,
    });
  }
  if (item?.answer_type === 'document') {
    const max = item.answer_spec?.max_files;
    // spec 4.2 rule 1: uploads add to the item's files, so the existing ones count (spec 8 "Files per item").
    const existing = Array.isArray(item.documents) ? item.documents.length : 0;
    if (typeof max === 'number' && existing + fileCount > max) {
      errors.push({
        field: 'files',
        message: `the item holds ${existing} file(s) and takes at most ${max}; ${fileCount} more would pass max_files`,
      });
    }
  }
  return errors;
}

/** fs errors come from another realm under some runners, so `instanceof Error` is not enough. */
function errorMessage(e: unknown): string {
  if (typeof e === 'object' && e !== null && 'message' in e && typeof e.message === 'string')
    return e.message;
  return String(e);
}

interface CheckedFile {
  source: OpenedUploadSource;
  contentType: string;
  sniffedType: string | undefined;
  sniffedExt: string | undefined;
}

/** Size and type rules for one opened file; pushes errors, returns the resolved type when known. */
async function checkFile(
  o: OpenedUploadSource,
  field: string,
  accepted: readonly string[] | undefined,
  limits: UploadLimits,
  errors: PartnerFieldError[],
): Promise<CheckedFile | undefined> {
  if (o.size !== undefined && o.size > limits.maxFileBytes) {
    errors.push({
      field,
      message: `is ${o.size} bytes; at most ${limits.maxFileBytes} bytes (30 MB) per file (spec 8)`,
    });
  }
  if (o.observedSize !== undefined && o.size !== o.observedSize) {
    // A wrong knownLength would make the multipart Content-Length lie.
    errors.push({
      field: `${field}.knownLength`,
      message: `is ${o.size} but the stream has ${o.observedSize} bytes`,
    });
  }
  if (o.head.length === 0) {
    errors.push({ field, message: 'is empty' });
    return undefined;
  }
  let contentType: string;
  let sniffed;
  if (o.contentType === undefined) {
    sniffed = await sniffFileType(o.head);
    if (!sniffed) {
      errors.push({
        field: `${field}.contentType`,
        message: 'not given, and the type cannot be recognised from the bytes',
      });
      return undefined;
    }
    contentType = sniffed.mime;
  } else {
    const check = await checkDeclaredType(o.contentType, o.head);
    sniffed = check.sniffed;
    contentType = check.declared;
    // spec 7.3: "a file whose bytes are not the type it was sent as".
    if (!check.matches) errors.push({ field: `${field}.contentType`, message: `${check.reason} (spec 7.3)` });
  }
  // spec 8 "Accepted types": answer_spec.mime_types.
  if (accepted && !isMimeTypeAccepted(contentType, accepted)) {
    errors.push({
      field: `${field}.contentType`,
      message: `${contentType} is not accepted for this item (accepted: ${accepted.join(', ')})`,
    });
  }
  return { source: o, contentType, sniffedType: sniffed?.mime, sniffedExt: sniffed?.ext };
}

/**
 * Validates the files of one upload call against every local rule and returns multipart parts that
 * stream their bodies. `item` is the target item when known (passed in, or fetched by the client):
 * then the item must be a document item, and mime_types and max_files apply. Throws
 * PartnerLocalValidationError naming each bad file (`files[2]`, `files[2].contentType`, ...);
 * caller streams are destroyed when it throws, since their heads were consumed.
 */
export async function prepareUploadFiles(
  files: readonly UploadSource[],
  item?: RfiItem,
  options: Partial<UploadLimits> = {},
): Promise<PreparedUploadPart[]> {
  const limits: UploadLimits = { ...DEFAULT_UPLOAD_LIMITS, ...options };
  if (!Array.isArray(files)) {
    throw new PartnerLocalValidationError([
      { field: 'files', message: `must be an array (got ${describeType(files)})` },
    ]);
  }
  const errors = collectUploadCountErrors(files.length, item, limits);
  const accepted = item?.answer_type === 'document' ? acceptedMimeTypesFor(item, limits) : undefined;
  // Opening is bounded: with more files than a call may carry, only the count is reported.
  const mayOpen = files.length <= limits.maxFiles;
  const opened: OpenedUploadSource[] = [];
  const checked: Array<CheckedFile | undefined> = [];
  let knownTotal = 0;

  for (const [i, source] of files.entries()) {
    const field = `files[${i}]`;
    const shape = uploadSourceShapeErrors(source, field);
    errors.push(...shape);
    if (shape.length === 0)
      errors.push(...uploadFileNameErrors(source as unknown as Record<string, unknown>, field));
    if (shape.length > 0 || !mayOpen) continue;
    let o: OpenedUploadSource;
    try {
      o = await openUploadSource(source);
    } catch (e) {
      const key = 'path' in source ? 'path' : 'stream';
      errors.push({
        field: `${field}.${key}`,
        message: `cannot be read: ${errorMessage(e)}`,
      });
      continue;
    }
    opened.push(o);
    knownTotal += o.size ?? 0;
    checked[i] = await checkFile(o, field, accepted, limits, errors);
  }
  if (knownTotal > limits.maxTotalBytes) {
    errors.push({
      field: 'files',
      message: `${knownTotal} bytes in all; at most ${limits.maxTotalBytes} per call`,
    });
  }
  if (errors.length > 0) {
    for (const o of opened) o.release();
    throw new PartnerLocalValidationError(errors);
  }

  // Unknown-length streams share what the known sizes leave of the per-call total.
  const budget = { remaining: limits.maxTotalBytes - knownTotal };
  return checked.map((c, i): PreparedUploadPart => {
    const file = c as CheckedFile; // no errors means every file was opened and checked
    const o = file.source;
    return {
      fieldName: 'files',
      fileName: sanitizeFileName(o.fileName ?? '', file.sniffedExt),
      contentType: file.contentType,
      knownLength: o.size,
      sniffedType: file.sniffedType,
      replayable: o.replayable,
      stream: () =>
        o.createStream({
          field: `files[${i}]`,
          maxBytes: limits.maxFileBytes,
          expectedBytes: o.size,
          budget: o.size === undefined ? budget : undefined,
        }),
    };
  });
}
