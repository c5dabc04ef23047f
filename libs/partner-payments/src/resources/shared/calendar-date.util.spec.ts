import { parseIsoDate } from './calendar-date.util';

describe('parseIsoDate', () => {
  it('parses real dates and refuses impossible ones', () => {
    expect(parseIsoDate('2000-02-29')).toEqual({ year: 2000, month: 2, day: 29 });
    expect(parseIsoDate('1900-02-29')).toBeUndefined(); // 1900 is not a leap year
    expect(parseIsoDate('2026-00-10')).toBeUndefined();
    expect(parseIsoDate('2026-06-00')).toBeUndefined();
    expect(parseIsoDate('2026-06-31')).toBeUndefined();
    expect(parseIsoDate(' 2026-06-01')).toBeUndefined();
  });
});
