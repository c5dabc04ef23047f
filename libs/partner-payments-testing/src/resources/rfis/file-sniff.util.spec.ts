import { contentProblem, normaliseMime, sanitizeFileName } from './file-sniff.util';
import { sampleFile, type SampleMime } from './sample-files.util';

describe('contentProblem (spec 7.3: a file whose bytes are not the type it was sent as)', () => {
  it.each<SampleMime>(['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'image/heic'])(
    'recognises a real %s',
    async (mime) => {
      await expect(contentProblem(mime, sampleFile(mime))).resolves.toBeUndefined();
    },
  );

  it('refuses a PNG sent as a PDF and a PDF sent as a JPEG', async () => {
    await expect(contentProblem('application/pdf', sampleFile('image/png'))).resolves.toContain('image/png');
    await expect(contentProblem('image/jpeg', sampleFile('application/pdf'))).resolves.toContain(
      'application/pdf',
    );
  });

  it('refuses text bytes sent as a PDF', async () => {
    await expect(contentProblem('application/pdf', Buffer.from('hello, not a pdf'))).resolves.toContain(
      'not recognisable',
    );
  });

  it('accepts text as text/plain but refuses binary or a known signature sent as text', async () => {
    await expect(contentProblem('text/plain', sampleFile('text/plain'))).resolves.toBeUndefined();
    await expect(contentProblem('text/plain', Buffer.from([0x41, 0x00, 0x42]))).resolves.toContain('binary');
    await expect(contentProblem('text/csv', sampleFile('application/pdf'))).resolves.toContain(
      'application/pdf',
    );
  });

  it('treats image/jpg as image/jpeg and ignores parameters', async () => {
    expect(normaliseMime('image/JPG')).toBe('image/jpeg');
    expect(normaliseMime('application/pdf; charset=binary')).toBe('application/pdf');
    await expect(contentProblem('image/jpg', sampleFile('image/jpeg'))).resolves.toBeUndefined();
  });
});

describe('sanitizeFileName (spec 2.2: the uploaded name, sanitised)', () => {
  it('drops directories (both separators) so no path can be expressed', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('C:\\Users\\me\\scan.pdf')).toBe('scan.pdf');
  });

  it('replaces unsafe characters and strips control characters, keeping letters of any script', () => {
    expect(sanitizeFileName('inv<oice>:"1"|?.pdf')).toBe('inv_oice_1_.pdf');
    expect(sanitizeFileName('a\u0000b\u202ec.pdf')).toBe('abc.pdf');
    expect(sanitizeFileName('résumé 2024.pdf')).toBe('résumé 2024.pdf');
  });

  it('removes leading dots and falls back to "file" when nothing is left', () => {
    expect(sanitizeFileName('.htaccess')).toBe('htaccess');
    expect(sanitizeFileName('...')).toBe('file');
    expect(sanitizeFileName('')).toBe('file');
  });

  it('caps the length at 200 characters and keeps the extension', () => {
    const long = `${'a'.repeat(300)}.pdf`;
    const clean = sanitizeFileName(long);
    expect(clean).toHaveLength(200);
    expect(clean.endsWith('.pdf')).toBe(true);
  });
});
