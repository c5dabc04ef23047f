import { parsePartnerTimestamp } from './timestamp.util';

describe('parsePartnerTimestamp (evidence §4: recipients send PostgreSQL text timestamps)', () => {
  it('reads the PostgreSQL text form with microseconds and +00', () => {
    expect(parsePartnerTimestamp('2026-05-28 00:52:49.879228+00')?.toISOString()).toBe(
      '2026-05-28T00:52:49.879Z',
    );
  });

  it('reads ISO forms and other offsets', () => {
    expect(parsePartnerTimestamp('2026-05-28T00:52:49Z')?.toISOString()).toBe('2026-05-28T00:52:49.000Z');
    expect(parsePartnerTimestamp('2026-05-28T02:52:49.5+02:00')?.toISOString()).toBe(
      '2026-05-28T00:52:49.500Z',
    );
    expect(parsePartnerTimestamp('2026-05-27 19:52:49-0500')?.toISOString()).toBe('2026-05-28T00:52:49.000Z');
  });

  it('answers null for what is not a timestamp', () => {
    for (const v of ['', 'yesterday', '2026-13-45 00:00:00+00', null, undefined]) {
      expect(parsePartnerTimestamp(v)).toBeNull();
    }
  });
});
