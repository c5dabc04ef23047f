import { PartnerLocalValidationError } from '../../../errors/partner.errors';
import { describeType, isUint8Array } from '../../shared/validation.util';

/**
 * Byte counting for upload bodies. Sizes the head could not prove (a caller stream without
 * knownLength, a file that changed after stat) are enforced while the body streams: past a limit the
 * stream errors with a PartnerLocalValidationError, so the request fails instead of sending a file the
 * server would refuse (spec 8) or a multipart body whose Content-Length lies.
 */

/** How a body stream is policed while it is read (sizes the head could not prove). */
export interface StreamGuard {
  /** field path named in the error, e.g. 'files[3]' */
  field: string;
  /** bytes allowed for this file (spec 8: 30 MB) */
  maxBytes: number;
  /** exact length promised (stat size, knownLength): more or fewer bytes would corrupt the multipart body */
  expectedBytes?: number;
  /** bytes left for all unknown-length files of this call (the per-call total) */
  budget?: { remaining: number };
}

export function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (isUint8Array(chunk)) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk === 'string') return Buffer.from(chunk);
  throw new TypeError(`upload streams must yield Buffer or string chunks (got ${describeType(chunk)})`);
}

function streamError(guard: StreamGuard, message: string, field = guard.field): PartnerLocalValidationError {
  return new PartnerLocalValidationError([{ field, message }]);
}

/** Re-yields chunks as Buffers while counting them; throws (erroring the stream) when a limit breaks. */
export async function* guardBytes(
  source: AsyncIterable<unknown> | Iterable<unknown>,
  guard: StreamGuard,
): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of source) {
    const buf = toBuffer(chunk);
    total += buf.length;
    if (total > guard.maxBytes) {
      throw streamError(guard, `is larger than ${guard.maxBytes} bytes (spec 8: 30 MB per file)`);
    }
    if (guard.expectedBytes !== undefined && total > guard.expectedBytes) {
      throw streamError(guard, `has more bytes than its known length ${guard.expectedBytes}`);
    }
    if (guard.budget) {
      guard.budget.remaining -= buf.length;
      if (guard.budget.remaining < 0) {
        throw streamError(
          guard,
          `${guard.field} takes the files of this call past the per-call total`,
          'files',
        );
      }
    }
    yield buf;
  }
  if (guard.expectedBytes !== undefined && total !== guard.expectedBytes) {
    throw streamError(guard, `ended after ${total} bytes; expected ${guard.expectedBytes}`);
  }
}
