import { computePartnerSignature, redactSignature, verifyPartnerSignature } from './signature.util';

const hex = (h: string): Buffer => Buffer.from(h, 'hex');

/** RFC 4231 section 4 HMAC-SHA-256 vectors (key and data as bytes, expected MAC in hex). */
const RFC4231: Array<{ name: string; key: Buffer; data: Buffer; mac: string }> = [
  {
    name: 'case 1',
    key: Buffer.alloc(20, 0x0b),
    data: Buffer.from('Hi There'),
    mac: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
  },
  {
    name: 'case 2 (key shorter than the output)',
    key: Buffer.from('Jefe'),
    data: Buffer.from('what do ya want for nothing?'),
    mac: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  },
  {
    name: 'case 3 (combined key and data of 0xaa / 0xdd)',
    key: Buffer.alloc(20, 0xaa),
    data: Buffer.alloc(50, 0xdd),
    mac: '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe',
  },
  {
    name: 'case 4 (key 0x01..0x19)',
    key: hex('0102030405060708090a0b0c0d0e0f10111213141516171819'),
    data: Buffer.alloc(50, 0xcd),
    mac: '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
  },
  {
    name: 'case 6 (key larger than the block size)',
    key: Buffer.alloc(131, 0xaa),
    data: Buffer.from('Test Using Larger Than Block-Size Key - Hash Key First'),
    mac: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
  },
  {
    name: 'case 7 (key and data larger than the block size)',
    key: Buffer.alloc(131, 0xaa),
    data: Buffer.from(
      'This is a test using a larger than block-size key and a larger than block-size data. ' +
        'The key needs to be hashed before being used by the HMAC algorithm.',
    ),
    mac: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
  },
];

describe('verifyPartnerSignature (spec 6.1.3)', () => {
  describe.each(RFC4231)('RFC 4231 $name', ({ key, data, mac }) => {
    it('computes the published MAC', () => {
      expect(computePartnerSignature(data, key)).toBe(mac);
    });
    it('accepts the published MAC, in lower and upper case hex', () => {
      expect(verifyPartnerSignature(data, mac, [key])).toEqual({ ok: true, secretIndex: 0 });
      expect(verifyPartnerSignature(data, mac.toUpperCase(), [key])).toEqual({ ok: true, secretIndex: 0 });
    });
    it('refuses the MAC with one flipped bit', () => {
      const flipped = hex(mac);
      flipped[31] ^= 0x01;
      expect(verifyPartnerSignature(data, flipped.toString('hex'), [key])).toMatchObject({
        ok: false,
        reason: 'mismatch',
      });
    });
  });

  it('RFC 4231 case 2 with the key as a string secret (the configured form)', () => {
    const mac = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
    expect(verifyPartnerSignature('what do ya want for nothing?', mac, ['Jefe']).ok).toBe(true);
  });

  it('RFC 4231 case 5 (output truncated to 128 bits) is refused as wrong length', () => {
    // spec 6.1.3: the header is the full HMAC-SHA256; a truncated MAC is never accepted.
    const result = verifyPartnerSignature('Test With Truncation', 'a3b6167473100ee06e0c796c2955552b', [
      Buffer.alloc(20, 0x0c),
    ]);
    expect(result).toMatchObject({ ok: false, reason: 'wrong_length' });
  });

  const body = Buffer.from('{"event":"payout.completed","data":{"event_id":"evt_1","status":"completed"}}');
  const secret = 'whsec_CaseSensitive';
  const good = computePartnerSignature(body, secret);

  it('refuses a body with one tampered byte', () => {
    const tampered = Buffer.from(body);
    tampered[tampered.length - 3] ^= 0x20;
    expect(verifyPartnerSignature(body, good, [secret]).ok).toBe(true);
    expect(verifyPartnerSignature(tampered, good, [secret])).toMatchObject({ ok: false, reason: 'mismatch' });
  });

  it('treats the secret as case-sensitive', () => {
    expect(verifyPartnerSignature(body, good, [secret.toLowerCase()])).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifyPartnerSignature(body, good, [secret.toUpperCase()])).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('verifies the raw bytes, not re-serialised JSON', () => {
    const pretty = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 2));
    expect(verifyPartnerSignature(pretty, good, [secret])).toMatchObject({ ok: false, reason: 'mismatch' });
  });

  it.each([
    { label: 'missing', header: undefined, reason: 'missing_header' },
    { label: 'empty', header: '', reason: 'missing_header' },
    { label: 'non-hex', header: 'z'.repeat(64), reason: 'not_hex' },
    { label: 'prefixed', header: `sha256=${'a'.repeat(64)}`, reason: 'not_hex' },
    { label: 'odd-length', header: 'a'.repeat(63), reason: 'odd_length' },
    { label: 'too short', header: 'ab'.repeat(31), reason: 'wrong_length' },
    { label: 'too long', header: 'ab'.repeat(33), reason: 'wrong_length' },
    { label: 'repeated', header: [good, good], reason: 'not_hex' },
  ])('refuses a $label header ($reason)', ({ header, reason }) => {
    const result = verifyPartnerSignature(body, header as string | string[] | undefined, [secret]);
    expect(result).toMatchObject({ ok: false, reason });
    if (!result.ok) expect(result.message).toContain('x-signature-sha256');
  });

  it('refuses when no secret is configured', () => {
    expect(verifyPartnerSignature(body, good, [])).toMatchObject({
      ok: false,
      reason: 'no_secret_configured',
    });
    expect(verifyPartnerSignature(body, good, [''])).toMatchObject({
      ok: false,
      reason: 'no_secret_configured',
    });
  });

  it('accepts any of several secrets during a rotation and says which matched', () => {
    const next = 'whsec_next';
    expect(verifyPartnerSignature(body, good, [next, secret])).toEqual({ ok: true, secretIndex: 1 });
    expect(verifyPartnerSignature(body, computePartnerSignature(body, next), [next, secret])).toEqual({
      ok: true,
      secretIndex: 0,
    });
    expect(verifyPartnerSignature(body, computePartnerSignature(body, 'retired'), [next, secret]).ok).toBe(
      false,
    );
  });

  it('takes a one-element header array; several values are malformed (not_hex), none is missing', () => {
    expect(verifyPartnerSignature(body, [good], [secret]).ok).toBe(true);
    expect(verifyPartnerSignature(body, [good, good], [secret])).toMatchObject({
      ok: false,
      reason: 'not_hex',
    });
    expect(verifyPartnerSignature(body, [], [secret])).toMatchObject({ ok: false, reason: 'missing_header' });
  });

  it('tolerates surrounding whitespace in the header', () => {
    expect(verifyPartnerSignature(body, ` ${good} `, [secret]).ok).toBe(true);
  });

  it('redacts signatures for logs', () => {
    expect(redactSignature(good)).not.toContain(good.slice(6));
    expect(redactSignature(good)).toContain('64 chars');
    expect(redactSignature(undefined)).toBe('<none>');
  });
});
