import FormData from 'form-data';
import { PreparedUploadPart } from './upload.rules';

/**
 * Appends prepared parts to a form-data body (spec 4.2: field `files`, repeated per file). Each
 * part's stream is created here, so call this once per attempt; with a part that is not replayable
 * (a caller stream) the upload can be attempted only once.
 */
export function appendUploadParts(form: FormData, parts: readonly PreparedUploadPart[]): FormData {
  for (const part of parts) {
    form.append(part.fieldName, part.stream(), {
      filename: part.fileName,
      contentType: part.contentType,
      ...(part.knownLength !== undefined ? { knownLength: part.knownLength } : {}),
    });
  }
  return form;
}

/** True when every part can be streamed again (so the upload may be retried). */
export function uploadPartsReplayable(parts: readonly PreparedUploadPart[]): boolean {
  return parts.every((p) => p.replayable);
}
