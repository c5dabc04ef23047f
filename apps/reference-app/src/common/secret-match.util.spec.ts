import { matchesAnySecret, secretDigest } from './secret-match.util';

describe('matchesAnySecret', () => {
  const configured = ['first-key-0123456789', 'second-key-0123456789'].map(secretDigest);

  it('accepts each configured secret, the second of a rotation list too', () => {
    expect(matchesAnySecret('first-key-0123456789', configured)).toBe(true);
    expect(matchesAnySecret('second-key-0123456789', configured)).toBe(true);
  });

  it.each(['', 'first-key-012345678', 'first-key-01234567890', 'FIRST-KEY-0123456789', 'x'.repeat(10_000)])(
    'refuses %j (prefix, longer, other case, empty, huge)',
    (presented) => {
      expect(matchesAnySecret(presented, configured)).toBe(false);
    },
  );

  it('refuses everything when nothing is configured', () => {
    expect(matchesAnySecret('first-key-0123456789', [])).toBe(false);
  });
});
