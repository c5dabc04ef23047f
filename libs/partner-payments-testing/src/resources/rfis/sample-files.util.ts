/**
 * Tiny files whose bytes really are their type, for upload tests (spec 7.3 sniffs the content).
 * `sampleFile('application/pdf')` → a Buffer a sniffer recognises as a PDF.
 */
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export type SampleMime =
  'application/pdf' | 'image/png' | 'image/jpeg' | 'image/webp' | 'image/heic' | 'text/plain';

export function sampleFile(mime: SampleMime, padTo = 0): Buffer {
  let bytes: Buffer;
  switch (mime) {
    case 'application/pdf':
      bytes = Buffer.from(
        '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
        'latin1',
      );
      break;
    case 'image/png':
      bytes = Buffer.from(PNG_1X1, 'base64');
      break;
    case 'image/jpeg':
      bytes = Buffer.concat([
        Buffer.from([
          0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
          0x00, 0x01, 0x00, 0x00,
        ]),
        Buffer.from([0xff, 0xd9]),
      ]);
      break;
    case 'image/webp': {
      const vp8 = Buffer.from('VP8 ', 'latin1');
      const size = Buffer.alloc(4);
      size.writeUInt32LE(4 + 8 + 10);
      bytes = Buffer.concat([
        Buffer.from('RIFF', 'latin1'),
        size,
        Buffer.from('WEBP', 'latin1'),
        vp8,
        Buffer.alloc(14),
      ]);
      break;
    }
    case 'image/heic': {
      const box = Buffer.alloc(24);
      box.writeUInt32BE(24, 0);
      box.write('ftypheic', 4, 'latin1');
      box.write('mif1heic', 16, 'latin1');
      bytes = Buffer.concat([box, Buffer.alloc(16)]);
      break;
    }
    default:
      bytes = Buffer.from('plain text sample\n', 'utf8');
  }
  return padTo > bytes.length ? Buffer.concat([bytes, Buffer.alloc(padTo - bytes.length, 0x20)]) : bytes;
}
