import { fileTypeFromBuffer } from 'file-type';
import { basename } from 'node:path';

/** provider-facts: document types accepted when answer_spec names none. */
export const DEFAULT_DOCUMENT_TYPES: readonly string[] = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/heic',
  'image/webp',
];

const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/heif': 'image/heic',
  'image/x-png': 'image/png',
};
export const normaliseMime = (mime: string): string => {
  const bare = mime.split(';')[0].trim().toLowerCase();
  return ALIASES[bare] ?? bare;
};

const TEXTUAL = /^(text\/|application\/(json|xml|csv)$)/;

/**
 * spec 7.3: "a file whose bytes are not the type it was sent as" is refused. Binary types must be
 * detected by magic bytes as the declared type; textual types must have no detectable binary
 * signature and no NUL byte. Answers the problem, or undefined when the bytes match.
 */
export async function contentProblem(declared: string, bytes: Buffer): Promise<string | undefined> {
  const want = normaliseMime(declared);
  const detected = await fileTypeFromBuffer(bytes.subarray(0, 4100)).catch(() => undefined);
  if (TEXTUAL.test(want)) {
    if (detected) return `its content is ${detected.mime}, not ${want}`;
    return bytes.subarray(0, 8192).includes(0) ? `its content is binary, not ${want}` : undefined;
  }
  if (!detected) return `its content is not recognisable as ${want}`;
  return normaliseMime(detected.mime) === want ? undefined : `its content is ${detected.mime}, not ${want}`;
}

/**
 * Stored file names are sanitised (spec 2.2): path parts dropped, control, format (bidi overrides
 * and isolates, zero-width characters, BOM) and other invisible (default-ignorable) characters
 * removed so a stored name displays as what it is, unsafe characters replaced, no leading dots, at
 * most 200 characters keeping the extension.
 */
export function sanitizeFileName(name: string): string {
  const base = basename(name.replace(/\\/g, '/'));
  let clean = base
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, '')
    .replace(/[^\p{L}\p{N}._ -]/gu, '_')
    .replace(/_+/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '');
  if (!clean || /^[._ -]+$/.test(clean)) clean = 'file';
  if (clean.length > 200) {
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : '';
    clean = clean.slice(0, 200 - ext.length) + ext;
  }
  return clean;
}
