import { MAX_FILE_NAME_CHARS, sanitizeFileName } from './file-name.util';

describe('sanitizeFileName', () => {
  it('keeps ordinary and non-ASCII names', () => {
    expect(sanitizeFileName('passport scan.pdf')).toBe('passport scan.pdf');
    expect(sanitizeFileName('relevé bancaire.pdf')).toBe('relevé bancaire.pdf');
  });

  it('drops directories of either separator', () => {
    expect(sanitizeFileName('/home/me/docs/id.png')).toBe('id.png');
    expect(sanitizeFileName('..\\..\\windows\\id.png')).toBe('id.png');
  });

  it('removes control characters and neutralises quotes that would break the part header', () => {
    expect(sanitizeFileName('a\r\nContent-Type: x\u0000.pdf')).toBe('aContent-Type: x.pdf');
    expect(sanitizeFileName('my "best" file.pdf')).toBe("my 'best' file.pdf");
  });

  it('falls back to file(.ext) for empty or dots-only names', () => {
    expect(sanitizeFileName('', 'pdf')).toBe('file.pdf');
    expect(sanitizeFileName('../..', 'png')).toBe('file.png');
    expect(sanitizeFileName('   ')).toBe('file');
  });

  it('caps the length and keeps the extension', () => {
    const out = sanitizeFileName(`${'a'.repeat(400)}.pdf`);
    expect(Array.from(out)).toHaveLength(MAX_FILE_NAME_CHARS);
    expect(out.endsWith('.pdf')).toBe(true);
  });
});
