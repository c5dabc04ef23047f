/**
 * File names for the multipart part header (spec 4.2; spec 2.2: the server keeps "the uploaded name,
 * sanitized" and never exposes a storage path). form-data writes `filename="..."` without escaping,
 * so a quote, CR or LF in a name would break the header; a path would leak the caller's directories.
 */

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
