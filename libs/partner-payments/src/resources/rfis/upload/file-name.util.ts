/**
 * File names for the multipart part header (spec 4.2; spec 2.2: the server keeps "the uploaded name,
 * sanitized" and never exposes a storage path). form-data writes `filename="..."` without escaping,
 * so a quote, CR or LF in a name would break the header; a path would leak the caller's directories.
 */

import type { PartnerFieldError } from '../../../errors/partner.errors';

/** Longest name kept, in characters (common file-system limit). */
export const MAX_FILE_NAME_CHARS = 255;

// C0 controls, DEL, C1 controls, and the Unicode line/paragraph separators.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Last path segment only, control characters removed, double quotes replaced by single ones,
 * trimmed, capped at 255 characters keeping the extension. An empty or dots-only result becomes
 * `file` (+ `.ext` when the sniffed extension is known).
 */
export function sanitizeFileName(name: string, fallbackExt?: string): string {
  const lastSegment = name.replace(CONTROL_CHARS, '').split(/[\\/]/).pop() ?? '';
  let clean = lastSegment.replace(/"/g, "'").trim();
  if (clean === '' || /^\.+$/.test(clean)) clean = fallbackExt ? `file.${fallbackExt}` : 'file';
  const chars = Array.from(clean);
  if (chars.length <= MAX_FILE_NAME_CHARS) return clean;
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 && clean.length - dot <= 16 ? Array.from(clean.slice(dot)) : [];
  return chars.slice(0, MAX_FILE_NAME_CHARS - ext.length).join('') + ext.join('');
}

/**
 * Format characters (Cf: bidi embeddings, overrides and isolates, zero-width characters, the BOM,
 * the soft hyphen) and the other default-ignorable ones (Hangul fillers, variation selectors) show
 * as nothing or reorder what follows: "invoice\u202Efdp.exe" displays as "invoiceexe.pdf". spec 2.2
 * has the partner sanitise names without saying how, so such a name is refused before anything is
 * sent rather than sent to be shown spoofed, or renamed behind the caller's back.
 */
const INVISIBLE_CHARS = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
const INVISIBLE_CHARS_ALL = new RegExp(INVISIBLE_CHARS.source, 'gu');

/**
 * The name a download's Content-Disposition gives (RFC 6266: `filename*` wins over `filename`),
 * made safe to write to disk and to show: the link's answer is not the caller's to trust, so a
 * path, a control or an invisible character in it is dropped, and a malformed percent-encoding
 * falls back to the plain `filename`. null when the header names no file.
 */
export function fileNameFromDisposition(disposition: string | null | undefined): string | null {
  if (!disposition) return null;
  let name: string | undefined;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  try {
    name = star ? decodeURIComponent(star[1]) : undefined;
  } catch {
    name = undefined; // URIError: not valid percent-encoded UTF-8
  }
  name ??= /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  return name === undefined ? null : sanitizeFileName(name.replace(INVISIBLE_CHARS_ALL, ''));
}

/** Why a file name cannot be sent as it is, or undefined. */
export function fileNameProblem(name: string): string | undefined {
  const found = INVISIBLE_CHARS.exec(name);
  if (!found) return undefined;
  const code = (found[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `holds U+${code} at index ${found.index}, an invisible or direction-changing character that would make the name display as something else; rename the file`;
}

/**
 * The name problem of one upload source, on the field it comes from: `fileName` when given, else
 * the last segment of `path` (what would be sent).
 */
export function uploadFileNameErrors(source: Record<string, unknown>, field: string): PartnerFieldError[] {
  const named = typeof source.fileName === 'string';
  const name = named
    ? source.fileName
    : typeof source.path === 'string'
      ? source.path.split(/[\\/]/).pop()
      : undefined;
  const problem = typeof name === 'string' ? fileNameProblem(name) : undefined;
  return problem ? [{ field: `${field}.${named ? 'fileName' : 'path'}`, message: problem }] : [];
}
