/**
 * Reads a partner timestamp leniently. Users answer ISO 8601 (`2026-07-13T20:42:04.713Z`), other
 * resources PostgreSQL's default text (`2026-05-28 00:52:49.879228+00`: a space, microseconds, a
 * two-digit offset) [T3r DRIFT-31][T2s KiraTimestampConverter]. A value without an offset is UTC.
 * Epoch numbers are read as seconds below 1e11 and milliseconds above. Anything else gives null,
 * never a throw: a timestamp the module cannot read must not fail the call that carried it.
 */
const PARTS =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:[.,](\d+))?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

export function parsePartnerTimestamp(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    const d = new Date(value < 1e11 ? value * 1000 : value);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  if (typeof value !== 'string') return null;
  const m = PARTS.exec(value.trim());
  if (!m) return null;
  const [, date, time = '00:00:00', fraction, zone] = m;
  const seconds = time.length === 5 ? `${time}:00` : time;
  const ms = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
  let offset = 'Z';
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    offset = `${digits.slice(0, 3)}:${digits.slice(3, 5) || '00'}`;
  }
  const d = new Date(`${date}T${seconds}${ms}${offset}`);
  return Number.isNaN(d.getTime()) ? null : d;
}
