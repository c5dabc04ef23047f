import { advancesEventTime } from './resource-projections.service';

describe('advancesEventTime', () => {
  const t = (iso: string) => new Date(iso);

  it('applies an event without a time, and leaves the recorded time as it was', () => {
    const row = { eventAt: t('2026-11-20T10:00:00Z') };
    expect(advancesEventTime(row, null)).toBe(true);
    expect(row.eventAt).toEqual(t('2026-11-20T10:00:00Z'));
  });

  it('applies the first timed event and a newer or equal one, recording its time', () => {
    const row: { eventAt: Date | null } = { eventAt: null };
    expect(advancesEventTime(row, t('2026-11-20T10:00:00Z'))).toBe(true);
    expect(advancesEventTime(row, t('2026-11-20T10:00:00Z'))).toBe(true);
    expect(advancesEventTime(row, t('2026-11-20T11:00:00Z'))).toBe(true);
    expect(row.eventAt).toEqual(t('2026-11-20T11:00:00Z'));
  });

  it('refuses an older event and keeps the newer time', () => {
    const row = { eventAt: t('2026-11-20T11:00:00Z') };
    expect(advancesEventTime(row, t('2026-11-20T10:59:59.999Z'))).toBe(false);
    expect(row.eventAt).toEqual(t('2026-11-20T11:00:00Z'));
  });
});
