import {
  fileNameFromDisposition,
  fileNameProblem,
  MAX_FILE_NAME_CHARS,
  sanitizeFileName,
} from './file-name.util';

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

describe('fileNameFromDisposition', () => {
  it('prefers filename* (RFC 6266) and keeps visible UTF-8 names', () => {
    expect(
      fileNameFromDisposition(`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`),
    ).toBe('résumé.pdf');
    expect(fileNameFromDisposition('attachment; filename="proof.pdf"')).toBe('proof.pdf');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });

  it('drops paths, controls and invisible characters a link answer may carry', () => {
    expect(fileNameFromDisposition(`attachment; filename*=UTF-8''..%2F..%2Fetc%2Fcron.d%2Fx`)).toBe('x');
    expect(fileNameFromDisposition(`attachment; filename*=UTF-8''invoice%E2%80%AEfdp.exe`)).toBe(
      'invoicefdp.exe',
    );
    expect(fileNameFromDisposition(`attachment; filename*=UTF-8''a%0D%0Ab%E2%80%8B.pdf`)).toBe('ab.pdf');
    expect(fileNameFromDisposition('attachment; filename="..\\..\\boot.ini"')).toBe('boot.ini');
  });

  it('a malformed percent-encoding falls back to filename instead of throwing', () => {
    expect(fileNameFromDisposition(`attachment; filename*=UTF-8''%E0%A4%A; filename="plain.pdf"`)).toBe(
      'plain.pdf',
    );
    expect(fileNameFromDisposition(`attachment; filename*=UTF-8''%FF`)).toBeNull();
  });
});
