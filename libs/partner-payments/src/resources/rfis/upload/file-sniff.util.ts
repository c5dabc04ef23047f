import { fileTypeFromBuffer, supportedMimeTypes } from 'file-type';

/**
 * Detects the real type of a file from its first bytes (spec 7.3 422 row: "a file whose bytes are
 * not the type it was sent as"; spec 8 "Accepted types"). Built on file-type (an ES module, loaded
 * through Node's require(esm)) with the magic numbers of pdf, png, jpeg, heic/heif, webp and the rest
 * it knows. Only the first SNIFF_HEAD_BYTES are ever handed to it.
 */

/** file-type reads at most this many bytes for most signatures; reading more buys nothing. */
export const SNIFF_HEAD_BYTES = 4100;

export interface SniffedType {
  /** e.g. 'pdf', 'png', 'jpg', 'heic', 'webp' */
  ext: string;
  /** e.g. 'application/pdf', 'image/jpeg', 'image/heic', 'image/heif' */
  mime: string;
}

/** Short names that answer_spec.mime_types or provider-facts use instead of mime types. */
const SHORT_NAMES: Record<string, string> = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  heic: 'image/heic',
  heif: 'image/heif',
  webp: 'image/webp',
};

/** Spellings of one type seen in the wild, mapped to the IANA name. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'application/x-pdf': 'application/pdf',
  'image/x-png': 'image/png',
};

/**
 * Types that are one format for matching purposes: HEIC is HEVC-in-HEIF, and phones label the same
 * file image/heic or image/heif; file-type names sequences separately. APNG is a valid PNG.
 */
const FAMILIES: Record<string, string> = {
  'image/heic': 'heif',
  'image/heif': 'heif',
  'image/heic-sequence': 'heif',
  'image/heif-sequence': 'heif',
  'image/png': 'png',
  'image/apng': 'png',
};

/** Lowercase, no parameters, aliases resolved, short names expanded: 'Image/JPG; q=1' -> 'image/jpeg'. */
export function canonicalMimeType(value: string): string {
  const bare = value.split(';')[0].trim().toLowerCase().replace(/^\./, '');
  return SHORT_NAMES[bare] ?? ALIASES[bare] ?? bare;
}

function family(mime: string): string {
  const canonical = canonicalMimeType(mime);
  return FAMILIES[canonical] ?? canonical;
}

/** True when two declared/sniffed types name the same format (jpeg = jpg, heic = heif, ...). */
export function mimeTypesMatch(a: string, b: string): boolean {
  return family(a) === family(b);
}

/** True when `mime` is in `accepted` (entries may be mime types or short names like 'pdf'). */
export function isMimeTypeAccepted(mime: string, accepted: readonly string[]): boolean {
  return accepted.some((entry) => mimeTypesMatch(entry, mime));
}

const SIGNATURE_FAMILIES = new Set<string>([...supportedMimeTypes].map((m) => family(m)));

/**
 * True when the type has a magic number file-type can recognise: for such a type, bytes that match
 * no signature are certainly not that type. For types without one (text/plain, text/csv) an
 * unrecognised head proves nothing.
 */
export function hasKnownSignature(mime: string): boolean {
  return SIGNATURE_FAMILIES.has(family(mime));
}

/** Sniffs the head bytes; undefined when no signature matches (or the head is too short). */
export async function sniffFileType(head: Uint8Array): Promise<SniffedType | undefined> {
  let result: SniffedType | undefined;
  try {
    result = await fileTypeFromBuffer(head);
  } catch {
    // A truncated or corrupt head can reject (EndOfStreamError and the like): treat as "unknown".
    return undefined;
  }
  if (!result) return undefined;
  // An Illustrator file is a PDF with private data; file-type names it application/postscript.
  if (result.ext === 'ai' && Buffer.from(head.subarray(0, 4)).toString('latin1') === '%PDF') {
    return { ext: 'pdf', mime: 'application/pdf' };
  }
  return { ext: result.ext, mime: result.mime };
}

export interface DeclaredTypeCheck {
  /** the declared type, canonicalised */
  declared: string;
  /** what the bytes are, when recognised */
  sniffed?: SniffedType;
  /** false only when the bytes certainly are not the declared type */
  matches: boolean;
  /** a human reason when matches is false */
  reason?: string;
}

/**
 * Compares a declared content type with the bytes. Mismatch when the bytes are recognisably another
 * type, or when the declared type has a signature the bytes lack (an empty or corrupt "pdf").
 */
export async function checkDeclaredType(declared: string, head: Uint8Array): Promise<DeclaredTypeCheck> {
  const canonical = canonicalMimeType(declared);
  const sniffed = await sniffFileType(head);
  if (sniffed) {
    if (mimeTypesMatch(canonical, sniffed.mime)) return { declared: canonical, sniffed, matches: true };
    return {
      declared: canonical,
      sniffed,
      matches: false,
      reason: `declared ${canonical} but the bytes are ${sniffed.mime}`,
    };
  }
  if (hasKnownSignature(canonical)) {
    return {
      declared: canonical,
      matches: false,
      reason: `declared ${canonical} but the bytes do not look like ${canonical}`,
    };
  }
  return { declared: canonical, matches: true };
}
