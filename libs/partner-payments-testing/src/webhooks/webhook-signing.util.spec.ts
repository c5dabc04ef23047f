import { signPartnerWebhook, verifyPartnerWebhook } from './webhook-signing.util';

/** RFC 4231 HMAC-SHA256 test vectors (test cases 1, 2, 3, 4, 6, 7). */
const RFC4231: { name: string; key: Buffer; data: Buffer; mac: string }[] = [
  {
    name: 'case 1',
    key: Buffer.alloc(20, 0x0b),
    data: Buffer.from('Hi There'),
    mac: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
  },
  {
    name: 'case 2 (key shorter than output)',
    key: Buffer.from('Jefe'),
    data: Buffer.from('what do ya want for nothing?'),
    mac: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  },
  {
    name: 'case 3',
    key: Buffer.alloc(20, 0xaa),
    data: Buffer.alloc(50, 0xdd),
    mac: '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe',
  },
  {
    name: 'case 4',
    key: Buffer.from(Array.from({ length: 25 }, (_, i) => i + 1)),
    data: Buffer.alloc(50, 0xcd),
    mac: '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
  },
  {
    name: 'case 6 (key larger than block)',
    key: Buffer.alloc(131, 0xaa),
    data: Buffer.from('Test Using Larger Than Block-Size Key - Hash Key First'),
    mac: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
  },
  {
    name: 'case 7 (key and data larger than block)',
    key: Buffer.alloc(131, 0xaa),
    data: Buffer.from(
      'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
    ),
    mac: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
  },
];

describe('signPartnerWebhook (spec 6.1.3: hex HMAC-SHA256 of the raw body)', () => {
  it.each(RFC4231)('matches RFC 4231 $name', ({ key, data, mac }) => {
    expect(signPartnerWebhook(data, key)).toBe(mac);
  });

  it('signs a string body exactly like its UTF-8 bytes, with a string secret', () => {
    const body = '{"event":"user.created","data":{"event_id":"é"}}';
    expect(signPartnerWebhook(body, 'Jefe')).toBe(
      signPartnerWebhook(Buffer.from(body, 'utf8'), Buffer.from('Jefe')),
    );
    expect(signPartnerWebhook('what do ya want for nothing?', 'Jefe')).toBe(RFC4231[1].mac);
  });

  it('gives a different signature for re-serialised JSON (bytes matter, not meaning)', () => {
    const raw = '{"event":"x","data":{"event_id":"1"}}';
    const reserialised = JSON.stringify(JSON.parse(raw), null, 2);
    expect(signPartnerWebhook(raw, 's')).not.toBe(signPartnerWebhook(reserialised, 's'));
  });
});

describe('verifyPartnerWebhook', () => {
  const body = '{"event":"payout.completed","data":{"event_id":"abc"}}';
  const sig = signPartnerWebhook(body, 'current');

  it('accepts the right signature, upper-case hex too', () => {
    expect(verifyPartnerWebhook(body, sig, 'current')).toBe(true);
    expect(verifyPartnerWebhook(body, sig.toUpperCase(), 'current')).toBe(true);
  });

  it('accepts any of several secrets (rotation) and rejects when none matches', () => {
    expect(verifyPartnerWebhook(body, sig, ['next', 'current'])).toBe(true);
    expect(verifyPartnerWebhook(body, sig, ['next', 'other'])).toBe(false);
  });

  it('is case-sensitive on the secret and rejects a tampered body', () => {
    expect(verifyPartnerWebhook(body, sig, 'Current')).toBe(false);
    expect(verifyPartnerWebhook(`${body} `, sig, 'current')).toBe(false);
  });

  it('never uses an empty secret as a key: a body signed with the empty key is refused', () => {
    const forged = signPartnerWebhook(body, '');
    // HMAC itself accepts the empty key: anyone can compute this signature.
    expect(forged).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyPartnerWebhook(body, forged, '')).toBe(false);
    expect(verifyPartnerWebhook(body, forged, [''])).toBe(false);
    expect(verifyPartnerWebhook(body, forged, [])).toBe(false);
    expect(verifyPartnerWebhook(body, forged, Buffer.alloc(0))).toBe(false);
    expect(verifyPartnerWebhook(body, forged, ['', Buffer.alloc(0)])).toBe(false);
    // An empty entry beside a real secret is skipped; the real one still verifies.
    expect(verifyPartnerWebhook(body, forged, ['', 'current'])).toBe(false);
    expect(verifyPartnerWebhook(body, sig, ['', 'current'])).toBe(true);
  });

  it('rejects missing, non-hex, odd-length and truncated signatures without throwing', () => {
    expect(verifyPartnerWebhook(body, undefined, 'current')).toBe(false);
    expect(verifyPartnerWebhook(body, 'zz', 'current')).toBe(false);
    expect(verifyPartnerWebhook(body, sig.slice(1), 'current')).toBe(false);
    expect(verifyPartnerWebhook(body, sig.slice(0, 32), 'current')).toBe(false);
  });
});
