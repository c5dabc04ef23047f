import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { PartnerFieldError } from '../../../errors/partner.errors';
import { SNIFF_HEAD_BYTES } from './file-sniff.util';
import { guardBytes, StreamGuard, toBuffer } from './upload-stream.util';
import { describeType, isPlainObject, isUint8Array } from '../../shared/validation.util';

/**
 * Turns the three accepted file inputs into one shape: the first bytes (for sniffing), the size when
 * it can be known without reading the file, and a stream factory. A file is never read whole into
 * memory (spec 8 allows 30 MB per file, 20 per call): a path is stat'ed,
 * its head read with one positioned read, and the body streamed from disk when the request is sent.
 */

/** A file on disk. fileName defaults to the path's basename; contentType to the sniffed type. */
export interface UploadPathSource {
  path: string;
  fileName?: string;
  contentType?: string;
}

/** A caller stream. It can be sent once; knownLength lets the request carry a Content-Length. */
export interface UploadStreamSource {
  /** a Node Readable, or any readable stream with pipe/on (legacy streams are wrapped) */
  stream: NodeJS.ReadableStream;
  fileName: string;
  contentType: string;
  knownLength?: number;
}

/** Bytes already in memory. */
export interface UploadBufferSource {
  buffer: Buffer | Uint8Array;
  fileName: string;
  contentType: string;
}

export type UploadSource = UploadPathSource | UploadStreamSource | UploadBufferSource;
export type { StreamGuard };

export interface OpenedUploadSource {
  kind: 'path' | 'stream' | 'buffer';
  fileName: string | undefined;
  contentType: string | undefined;
  /** known without reading the body: stat size, buffer length, knownLength, or a stream that ended within the head */
  size: number | undefined;
  /** bytes actually seen when a stream ended while its head was read (to check knownLength against) */
  observedSize?: number;
  /** the first bytes (at least SNIFF_HEAD_BYTES unless the file is shorter) */
  head: Buffer;
  /** false for caller streams: their body can be sent only once */
  replayable: boolean;
  createStream(guard: StreamGuard): Readable;
  /** Frees what opening took (destroys a caller stream) when the upload is abandoned. */
  release(): void;
}

function isReadableLike(value: unknown): value is NodeJS.ReadableStream {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { pipe?: unknown; on?: unknown };
  return typeof v.pipe === 'function' && typeof v.on === 'function';
}

const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Structural problems with one source, before anything is opened. */
export function uploadSourceShapeErrors(source: unknown, field: string): PartnerFieldError[] {
  if (!isPlainObject(source)) {
    return [
      {
        field,
        message: `must be { path }, { stream, fileName, contentType } or { buffer, fileName, contentType } (got ${describeType(source)})`,
      },
    ];
  }
  const errors: PartnerFieldError[] = [];
  const optionalString = (key: string) => {
    if (source[key] !== undefined && !isNonEmptyString(source[key]))
      errors.push({ field: `${field}.${key}`, message: 'must be a non-empty string' });
  };
  const requiredString = (key: string) => {
    if (!isNonEmptyString(source[key]))
      errors.push({ field: `${field}.${key}`, message: 'must be a non-empty string' });
  };
  if ('path' in source) {
    requiredString('path');
    optionalString('fileName');
    optionalString('contentType');
  } else if ('stream' in source) {
    if (!isReadableLike(source.stream)) {
      errors.push({ field: `${field}.stream`, message: 'must be a readable stream' });
    }
    requiredString('fileName');
    requiredString('contentType');
    const len = source.knownLength;
    if (len !== undefined && !(typeof len === 'number' && Number.isSafeInteger(len) && len >= 0)) {
      errors.push({ field: `${field}.knownLength`, message: 'must be a non-negative integer' });
    }
  } else if ('buffer' in source) {
    if (!isUint8Array(source.buffer)) {
      errors.push({ field: `${field}.buffer`, message: 'must be a Buffer or Uint8Array' });
    }
    requiredString('fileName');
    requiredString('contentType');
  } else {
    errors.push({ field, message: 'must have one of path, stream or buffer' });
  }
  return errors;
}

const byteStream = (chunks: AsyncIterable<Buffer>) => Readable.from(chunks, { objectMode: false });

async function openPath(source: UploadPathSource): Promise<OpenedUploadSource> {
  const handle = await open(source.path, 'r');
  let head: Buffer;
  let size: number;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('not a regular file');
    size = stat.size;
    // One positioned read of the head: the body stays on disk until the request streams it.
    const buf = Buffer.alloc(Math.min(SNIFF_HEAD_BYTES, size));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  return {
    kind: 'path',
    fileName: source.fileName ?? basename(source.path),
    contentType: source.contentType,
    size,
    head,
    replayable: true,
    // A fresh disk stream per call, opened lazily when the consumer first reads (retries re-read the file).
    createStream: (guard) => byteStream(guardBytes(lazyFileChunks(source.path), guard)),
    release: () => undefined,
  };
}

/**
 * 512 KiB disk reads instead of the 64 KiB default: every chunk crosses the guard, Readable.from,
 * form-data and axios's transform stream, so 8x fewer chunks cost 8x fewer hops (bench/README.md,
 * upload row). At most a few chunks are in flight, far under the 64 MiB RSS budget.
 */
const FILE_CHUNK_BYTES = 512 * 1024;

async function* lazyFileChunks(path: string): AsyncGenerator<unknown> {
  yield* createReadStream(path, { highWaterMark: FILE_CHUNK_BYTES });
}

async function openStream(source: UploadStreamSource): Promise<OpenedUploadSource> {
  // Duck-typed, not instanceof: streams from other realms or stream libraries are accepted too.
  const input = source.stream;
  const readable: AsyncIterable<unknown> =
    Symbol.asyncIterator in input ? input : new Readable({ objectMode: false }).wrap(input);
  const it: AsyncIterator<unknown> = readable[Symbol.asyncIterator]();
  const headChunks: Buffer[] = [];
  let headBytes = 0;
  let ended = false;
  try {
    while (headBytes < SNIFF_HEAD_BYTES) {
      const next = await it.next();
      if (next.done) {
        ended = true;
        break;
      }
      const buf = toBuffer(next.value);
      headChunks.push(buf);
      headBytes += buf.length;
    }
  } catch (e) {
    await it.return?.(); // do not leave a half-read caller stream open
    throw e;
  }
  let used = false;
  // Replays the head chunks, then continues the same iterator; returning it destroys the caller stream.
  async function* replay(): AsyncGenerator<unknown> {
    try {
      yield* headChunks;
      if (ended) return;
      for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    } finally {
      await it.return?.();
    }
  }
  return {
    kind: 'stream',
    fileName: source.fileName,
    contentType: source.contentType,
    size: source.knownLength ?? (ended ? headBytes : undefined),
    observedSize: ended ? headBytes : undefined,
    head: Buffer.concat(headChunks),
    replayable: false,
    createStream: (guard) => {
      if (used)
        throw new Error('a stream upload source can be sent only once; pass a path or a buffer to retry');
      used = true;
      return byteStream(guardBytes(replay(), guard));
    },
    release: () => {
      if (used) return;
      used = true;
      const destroyable = input as { destroy?: () => void };
      if (typeof destroyable.destroy === 'function') destroyable.destroy();
      else void it.return?.();
    },
  };
}

function openBuffer(source: UploadBufferSource): OpenedUploadSource {
  const buf = toBuffer(source.buffer);
  return {
    kind: 'buffer',
    fileName: source.fileName,
    contentType: source.contentType,
    size: buf.length,
    head: buf.subarray(0, SNIFF_HEAD_BYTES),
    replayable: true,
    createStream: (guard) => byteStream(guardBytes([buf], guard)),
    release: () => undefined,
  };
}

/** Opens a source that passed uploadSourceShapeErrors. Rejects on I/O errors (ENOENT, a stream error). */
export async function openUploadSource(source: UploadSource): Promise<OpenedUploadSource> {
  if ('path' in source) return openPath(source);
  if ('stream' in source) return openStream(source);
  return openBuffer(source);
}
