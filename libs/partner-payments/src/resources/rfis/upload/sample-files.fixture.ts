import { crc32, deflateSync } from 'node:zlib';

/**
 * Minimal real files for the sniffing and upload tests (test-only; not exported from the package).
 * Each starts with the genuine signature of its format; pdf and png are complete, valid files.
 */

export function samplePdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[]/Count 0>> endobj\n' +
      'trailer <</Root 1 0 R>>\n%%EOF\n',
    'latin1',
  );
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([len, typeAndData, crc]);
}

/** A valid 1x1 RGB PNG. */
export function samplePng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** SOI + JFIF APP0 + EOI. */
export function sampleJpeg(): Buffer {
  return Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00,
    0x01, 0x00, 0x00, 0xff, 0xd9,
  ]);
}

/** A 1x1 lossless WebP (RIFF container, VP8L chunk). */
export function sampleWebp(): Buffer {
  return Buffer.concat([
    Buffer.from('RIFF', 'latin1'),
    Buffer.from([0x1a, 0, 0, 0]),
    Buffer.from('WEBPVP8L', 'latin1'),
    Buffer.from([0x0d, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0x00]),
  ]);
}

/** ISO-BMFF ftyp box with the given major brand ('heic' for HEIC, 'mif1' for generic HEIF). */
export function sampleHeic(brand: 'heic' | 'mif1' = 'heic'): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from(`ftyp${brand}`, 'latin1'),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from('mif1heic', 'latin1'),
  ]);
  const meta = Buffer.concat([Buffer.from([0, 0, 0, 0x0c]), Buffer.from('meta', 'latin1'), Buffer.alloc(4)]);
  return Buffer.concat([ftyp, meta]);
}
