import { inspect } from 'node:util';
import {
  generateInboxKeyEntry,
  PartnerInboxKeyRing,
  PartnerInboxKeyUnavailableError,
  parseInboxKeys,
} from './inbox-key-ring.util';

const ring = (value: string) => new PartnerInboxKeyRing(parseInboxKeys(value));
const K1 = generateInboxKeyEntry('k1');
const K2 = generateInboxKeyEntry('k2');
const ROW = 'a'.repeat(64);

describe('PartnerInboxKeyRing (AES-256-GCM)', () => {
  const body =
    '\ufeff{"event":"virtual_account.created","data":{"account_number":"123456789012","x":"\u{1f600}"}}';

  it('gives back the exact text sealed, and the sealed value names its key but holds no plaintext', () => {
    const keys = ring(K1);
    const sealed = keys.seal(body, ROW);
    expect(sealed).toMatch(/^v1\.k1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('123456789012');
    expect(keys.open(sealed, ROW)).toBe(body);
    // A fresh IV each time: the same body never seals to the same value.
    expect(keys.seal(body, ROW)).not.toBe(sealed);
  });

  it('rotates: the first key seals, every listed key opens what it sealed', () => {
    const old = ring(K1).seal(body, ROW);
    const rotated = ring(`${K2},${K1}`);
    expect(rotated.currentId).toBe('k2');
    expect(rotated.open(old, ROW)).toBe(body);
    expect(rotated.seal(body, ROW)).toMatch(/^v1\.k2\./);
    expect(() => ring(K2).open(old, ROW)).toThrow(PartnerInboxKeyUnavailableError);
    expect(() => ring(K2).open(old, ROW)).toThrow(/'k1'.*sealing keys do not list/);
  });

  it('refuses a tampered value, a value moved to another row, and a key with the same id but other bytes', () => {
    const keys = ring(K1);
    const sealed = keys.seal(body, ROW);
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[4], 'base64url');
    flipped[0] ^= 1;
    parts[4] = flipped.toString('base64url');
    expect(() => keys.open(parts.join('.'), ROW)).toThrow();
    expect(() => keys.open(sealed, 'b'.repeat(64))).toThrow();
    expect(() => ring(generateInboxKeyEntry('k1')).open(sealed, ROW)).toThrow();
    expect(() => keys.open('{"plain":"json"}', ROW)).toThrow(/not a v1 sealed value/);
  });

  it('never prints key material', () => {
    const keys = ring(`${K2},${K1}`);
    const material = [K1, K2].map((entry) => entry.split(':')[1]);
    for (const printed of [JSON.stringify({ keys }), inspect(keys), String(inspect({ nested: keys }))]) {
      for (const key of material) expect(printed).not.toContain(key);
      expect(printed).toContain('k2, k1');
    }
  });

  it.each([
    ['', /at least one/],
    ['nocolon', /key id/],
    [':abc', /key id/],
    ['k1:short', /32 bytes/],
    [`k1:${Buffer.alloc(31).toString('base64')}`, /32 bytes/],
    [`k1:${Buffer.alloc(32).toString('base64')}!`, /32 bytes/],
    [`${K1},${K1}`, /twice/],
  ])('parseInboxKeys refuses %j', (value, message) => {
    expect(() => parseInboxKeys(value)).toThrow(message);
  });
});
