import { fileNameProblem, MAX_FILE_NAME_CHARS, sanitizeFileName } from './file-name.util';

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

describe('fileNameProblem', () => {
  it('names every bidi control, zero-width, format or other invisible character', () => {
    const invisible = [
      0x202e, 0x202d, 0x202a, 0x202b, 0x202c, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x200b,
      0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad, 0x180e, 0x3164, 0x115f, 0xfe0f, 0x034f, 0xe0001,
    ];
    for (const cp of invisible) {
      const hex = cp.toString(16).toUpperCase().padStart(4, '0');
      expect(fileNameProblem(`a${String.fromCodePoint(cp)}b.pdf`)).toMatch(
        new RegExp(`^holds U\\+${hex} at index 1`),
      );
    }
  });

  it('passes visible names in any script', () => {
    for (const name of [
      'passport scan.pdf',
      'relevé bancaire.pdf',
      'паспорт.pdf',
      'جواز.pdf',
      '护照 (1).png',
    ])
      expect(fileNameProblem(name)).toBeUndefined();
  });
});
