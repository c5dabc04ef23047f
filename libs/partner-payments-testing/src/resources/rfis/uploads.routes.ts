import { createHash } from 'node:crypto';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { closeAfterAnswer, discardBody, isMultipart } from '../../middleware/body.middleware';
import { newId, nowIso } from '../../server/ids.util';
import { sendError, sendNotFound } from '../../server/http-errors.util';
import { contentProblem, DEFAULT_DOCUMENT_TYPES, normaliseMime, sanitizeFileName } from './file-sniff.util';
import { refreshRfiStatus, rfiItemView } from './rfi-seed.service';
import { findRfi } from './rfi-lookup.util';
import { requestState, type SandboxContext } from '../../server/sandbox-context.util';
import type { RfiDocument } from '../../server/rfi-state.types';
import { documentLink } from './document-link.util';

/** spec 7.3 / 8 limits; MB is decimal: 30 MB = 30,000,000 bytes, as the partner counts. */
export const MAX_FILE_BYTES = 30_000_000;
export const MAX_FILES_PER_CALL = 20;
/** provider-facts (weak): one upload call carries at most 100 MB (100,000,000 bytes) in all. */
export const MAX_CALL_BYTES = 100_000_000;
/** Multipart framing allowed on top (boundaries and part headers of 20 files); past it reading stops. */
const MAX_FRAMING_BYTES = 1_000_000;

interface Incoming {
  name: string;
  mime: string;
  chunks: Buffer[];
  size: number;
}

const unprocessable = (res: Response, message: string) => sendError(res, 422, 'unprocessable', message);

/** Streams the multipart body (busboy) to the end, keeping files in memory until every rule passed. */
function readParts(
  req: Request,
  res: Response,
): Promise<{
  files: Incoming[];
  tooMany: boolean;
  total: number;
  sha256: string;
  error?: string;
  overLimit?: boolean;
}> {
  return new Promise((resolve) => {
    const files: Incoming[] = [];
    const hash = createHash('sha256');
    let tooMany = false;
    let total = 0;
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // Browsers, undici and curl send the filename parameter as raw UTF-8; busboy's default
        // (latin1) would turn "évid.pdf" into "Ã©vid.pdf" (spec 2.2: the uploaded name, sanitized).
        defParamCharset: 'utf8',
        limits: { fileSize: MAX_FILE_BYTES + 1, files: MAX_FILES_PER_CALL, fields: 100 },
      });
    } catch (error) {
      discardBody(req, MAX_CALL_BYTES + MAX_FRAMING_BYTES);
      return resolve({ files, tooMany, total, sha256: hash.digest('hex'), error: (error as Error).message });
    }
    parser.on('file', (field, stream, info) => {
      if (field !== 'files') return void stream.resume();
      const file: Incoming = { name: info.filename ?? '', mime: info.mimeType, chunks: [], size: 0 };
      files.push(file);
      stream.on('data', (chunk: Buffer) => {
        file.size += chunk.length;
        total += chunk.length;
        if (total <= MAX_CALL_BYTES) file.chunks.push(chunk);
      });
    });
    parser.on('filesLimit', () => (tooMany = true));
    let read = 0;
    const onData = (chunk: Buffer) => {
      hash.update(chunk);
      read += chunk.length;
      // Past every limit the rest is not read: the answer closes the connection.
      if (read <= MAX_CALL_BYTES + MAX_FRAMING_BYTES) return;
      req.off('data', onData);
      closeAfterAnswer(req, res);
      overLimit = true;
      finish();
    };
    let overLimit = false;
    req.on('data', onData);
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      if (!req.complete && read <= MAX_CALL_BYTES + MAX_FRAMING_BYTES)
        discardBody(req, MAX_CALL_BYTES + MAX_FRAMING_BYTES);
      resolve({ files, tooMany, total, sha256: hash.digest('hex'), error, overLimit });
    };
    parser.on('close', () => finish());
    parser.on('error', (e: Error) => finish(e.message));
    req.pipe(parser);
  });
}

/**
 * POST /v1/rfis/{rfi_id}/items/{item_id}/documents (spec 4.2, 7.3): every 422 rule checked before
 * anything is stored; uploads add to the item's files and never replace them.
 */
export async function handleDocumentUpload(ctx: SandboxContext, req: Request, res: Response): Promise<void> {
  // A body answered without being read is dropped, up to the most an upload may carry.
  const discard = () => discardBody(req, MAX_CALL_BYTES + MAX_FRAMING_BYTES);
  const rfi = findRfi(ctx, req, res, true);
  if (!rfi) return discard();
  const item = rfi.items.find((i) => i.item_id === String(req.params.itemId).toLowerCase());
  if (!item) return void (discard(), sendNotFound(res, 'Item'));
  if (item.answer_type !== 'document') {
    discard();
    return unprocessable(
      res,
      `The item asks for ${item.answer_type}, not files: answer it with PATCH /v1/rfis/{rfi_id}/items`,
    );
  }
  if (!isMultipart(req))
    return void (
      discard(),
      unprocessable(res, 'The body must be multipart/form-data with one or more "files" parts')
    );
  const parts = await readParts(req, res);
  requestState(res).bodySha256 = parts.sha256;
  if (parts.overLimit) return unprocessable(res, 'One upload call carries at most 100 MB in all');
  const { files } = parts;
  const accepted = (
    Array.isArray(item.answer_spec.mime_types)
      ? (item.answer_spec.mime_types as string[])
      : DEFAULT_DOCUMENT_TYPES
  ).map(normaliseMime);
  const maxFiles =
    typeof item.answer_spec.max_files === 'number' ? item.answer_spec.max_files : Number.POSITIVE_INFINITY;
  if (parts.error && files.length === 0)
    return unprocessable(res, `The multipart body could not be read: ${parts.error}`);
  if (files.length === 0)
    return unprocessable(res, 'The multipart body is empty: send one or more files in the "files" field');
  if (parts.tooMany || files.length > MAX_FILES_PER_CALL)
    return unprocessable(res, `At most ${MAX_FILES_PER_CALL} files per call`);
  // busboy flags a file that reaches its limit, so the limit is one byte above 30 MB.
  const big = files.find((f) => f.size > MAX_FILE_BYTES);
  if (big) return unprocessable(res, `File "${sanitizeFileName(big.name)}" is over 30 MB`);
  if (parts.total > MAX_CALL_BYTES)
    return unprocessable(res, 'One upload call carries at most 100 MB in all');
  if (item.documents.length + files.length > maxFiles) {
    return unprocessable(
      res,
      `The item accepts at most ${maxFiles} files; it has ${item.documents.length} and ${files.length} were sent`,
    );
  }
  const buffers = files.map((f) => Buffer.concat(f.chunks));
  for (const [i, f] of files.entries()) {
    const name = sanitizeFileName(f.name);
    if (!accepted.includes(normaliseMime(f.mime)))
      return unprocessable(res, `File "${name}" has type ${f.mime}; accepted: ${accepted.join(', ')}`);
    const problem = await contentProblem(f.mime, buffers[i]);
    if (problem) return unprocessable(res, `File "${name}" is not the type it was sent as: ${problem}`);
  }
  // Every rule passed: store all files, add them to the existing set (spec 4.2 rule 1).
  const stored: RfiDocument[] = files.map((f, i) => {
    const document_id = newId();
    rfi.files.set(document_id, buffers[i]);
    return {
      document_id,
      file_name: sanitizeFileName(f.name),
      mime_type: normaliseMime(f.mime),
      size_bytes: buffers[i].length,
      checksum: createHash('sha256').update(buffers[i]).digest('hex'),
      uploaded_at: nowIso(),
    };
  });
  item.documents.push(...stored);
  item.status = 'answered';
  item.answer_value = null;
  item.review_note = null;
  item.updated_at = nowIso();
  ctx.telemetry.created('documents', stored.length);
  refreshRfiStatus(rfi);
  res.status(201).json({ item: rfiItemView(ctx, rfi, item) });
}

/**
 * evidence §7 [T1 KiraApiClient]: JSON `{download_url, expires_at}`, a short-lived signed link to the
 * file (served under its sanitised name, spec 2.2); 404 when the RFI has no such file (7.3).
 */
export function handleDocumentDownload(ctx: SandboxContext, req: Request, res: Response): void {
  const rfi = findRfi(ctx, req, res, false);
  if (!rfi) return;
  const item = rfi.items.find((i) => i.item_id === String(req.params.itemId).toLowerCase());
  const doc = item?.documents.find((d) => d.document_id === String(req.params.documentId).toLowerCase());
  const bytes = doc ? rfi.files.get(doc.document_id) : undefined;
  if (!item || !doc || !bytes) return sendNotFound(res, 'File');
  res.status(200).json(documentLink(ctx.documentLinks, req, doc));
}
