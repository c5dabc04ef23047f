import { isSandboxBaseUrl, redact, writePolicy } from './safety.util';

describe('conformance write policy', () => {
  it('treats only a base whose path ends in /sandbox as a sandbox (spec 1)', () => {
    expect(isSandboxBaseUrl('https://api.partner.example/sandbox')).toBe(true);
    expect(isSandboxBaseUrl('https://api.partner.example/sandbox/')).toBe(true);
    expect(isSandboxBaseUrl('https://sandbox.partner.example')).toBe(false);
    expect(isSandboxBaseUrl('https://api.partner.example/sandboxes')).toBe(false);
  });

  it('writes only on a sandbox base with allowWrites, and never on production whatever the caller says', () => {
    expect(writePolicy('https://p.example/sandbox', true).writes).toBe(true);
    expect(writePolicy('https://p.example/sandbox', false)).toEqual(
      expect.objectContaining({
        writes: false,
        environment: 'sandbox',
        readOnlyReason: expect.stringContaining('--allow-writes'),
      }),
    );
    const prod = writePolicy('https://p.example', true, 'sandbox');
    expect(prod).toEqual(expect.objectContaining({ writes: false, environment: 'production' }));
    expect(prod.readOnlyReason).toContain('refused despite --allow-writes');
    expect(writePolicy('https://p.example/sandbox', true, 'production').writes).toBe(false);
  });
});

describe('conformance redaction', () => {
  it('removes secrets, values under secret keys and long digit runs, keeping ids intact', () => {
    const id = '6f1c2a3b-4d5e-4f60-8a7b-123456789012';
    const text = `key KEY-abcdef token sbx_1234 {"account_number":"ES91 2100","ssn":"123"} acct 4000123456 id ${id} 2026-05-28`;
    expect(redact(text, ['KEY-abcdef', 'sbx_1234'])).toBe(
      `key [redacted] token [redacted] {"account_number":"[redacted]","ssn":"[redacted]"} acct ****3456 id ${id} 2026-05-28`,
    );
  });

  it('removes any JWT, also one the run did not issue (a tampered bearer token)', () => {
    const jwt = 'eyJraWQiOiJrIiwiYWxnIjoiUlMyNTYifQ.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl-_x';
    expect(redact(`rejected Bearer ${jwt}, retry`, [])).toBe('rejected Bearer [redacted], retry');
  });

  it('masks account numbers with letters, IBANs whole or grouped, and CLABEs, keeping the last 4', () => {
    const text =
      'account ES9121000418450200051332 or ES91 2100 0418 4502 0005 1332, swift CAIXESBBXXX, acct GB33BUKB20201555555555, clabe 032180000118359719, ref 12345 at 2026-05-28T10:11:12Z';
    expect(redact(text, [])).toBe(
      'account ****1332 or ****1332, swift CAIXESBBXXX, acct ****5555, clabe ****9719, ref 12345 at 2026-05-28T10:11:12Z',
    );
  });
});
