import { postgresTimestamp } from './recipients-view.util';

describe('postgresTimestamp: PostgreSQL text form (evidence §4 [T3r DRIFT-31], §11 N29)', () => {
  it.each([
    ['2026-05-28T00:54:15.439Z', 840, '2026-05-28 00:54:15.43984+00'], // the capture's 5 digits
    ['2026-05-28T00:52:49.879Z', 228, '2026-05-28 00:52:49.879228+00'],
    ['2026-05-28T00:52:49.800Z', 0, '2026-05-28 00:52:49.8+00'],
    ['2026-05-28T00:52:49.000Z', 0, '2026-05-28 00:52:49+00'], // a whole second: no fraction
  ])('%s + %i µs → %s', (iso, micros, text) => expect(postgresTimestamp(iso, micros)).toBe(text));
});
