import { emailProblem, MAX_EMAIL_CHARS } from './validation.util';

describe('emailProblem', () => {
  it('keeps the lenient shape: one @, no whitespace, a dot inside the domain', () => {
    for (const ok of ['ada@example.com', 'a+b@x.co', 'a@b..c', 'a@..b', "o'neil@mail.example.org"])
      expect([ok, emailProblem(ok)]).toEqual([ok, undefined]);
    for (const bad of ['ada', 'a@b', 'a@.b', 'a@b.', '@b.c', 'a@@b.c', 'a b@c.d', 'a@b.c@d.e', 'a@b.\nc'])
      expect([bad, emailProblem(bad)]).toEqual([bad, 'must be an email address']);
  });

  it('refuses more than 254 characters, the longest address RFC 5321 carries', () => {
    const at = (n: number) => `${'a'.repeat(n - '@example.com'.length)}@example.com`;
    expect(emailProblem(at(MAX_EMAIL_CHARS))).toBeUndefined();
    expect(emailProblem(at(MAX_EMAIL_CHARS + 1))).toMatch(/at most 254 characters \(got 255\)/);
  });

  it('answers hostile shapes at once, whatever their length (no backtracking)', () => {
    // A bound far above the microseconds these take and far below the seconds a backtracking
    // regex needs for them.
    for (const n of [50_000, 1_000_000]) {
      for (const hostile of [`a@${'.'.repeat(n)}@`, `a@${'.'.repeat(n)}`, `${'a'.repeat(n)}@`]) {
        const started = performance.now();
        expect(emailProblem(hostile)).toMatch(/must be an email address/);
        expect(performance.now() - started).toBeLessThan(250);
      }
    }
  });
});
