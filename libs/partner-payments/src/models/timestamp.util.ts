/**
 * Reads a timestamp the partner sends, in ISO 8601 or in PostgreSQL's text form
 * (`2026-05-28 00:52:49.879228+00`: space separator, microseconds, `+00`), which recipients use
 * (evidence §4 [T3r DRIFT-31]) and which a strict ISO parser refuses. Returns null when unreadable.
 */
export function parsePartnerTimestamp(value: string | null | undefined): Date | null {
  if (typeof value !== 'string') return null;
  const m =
    /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(
      value.trim(),
    );
  if (!m) return null;
  const [, date, time, fraction, zone] = m;
  // Milliseconds are all a Date holds; further digits are dropped.
  const ms = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
  let offset = 'Z';
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    offset = `${digits.slice(0, 3)}:${digits.slice(3, 5) || '00'}`;
  }
  const parsed = new Date(`${date}T${time.length === 5 ? `${time}:00` : time}${ms}${offset}`);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}
