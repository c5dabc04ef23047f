import { placeholders, readTimestamp, timestampParam } from './sql-dialect.util';

describe('sql dialect helpers', () => {
  it('numbers placeholders on PostgreSQL, positions them on SQLite', () => {
    expect(placeholders('postgres', 3, 2)).toEqual(['$2', '$3', '$4']);
    expect(placeholders('sqlite', 2)).toEqual(['?', '?']);
  });

  it('writes a SQLite timestamp as TypeORM does and reads it back as the same instant', () => {
    const at = new Date('2026-11-28T09:30:01.234Z');
    expect(timestampParam('sqlite', at)).toBe('2026-11-28 09:30:01.234');
    expect(timestampParam('postgres', at)).toBe(at);
    expect(readTimestamp('2026-11-28 09:30:01.234')?.toISOString()).toBe(at.toISOString());
    expect(readTimestamp(at)).toBe(at);
    expect(readTimestamp(null)).toBeNull();
  });

  it('orders SQLite timestamps as text the way the instants are ordered', () => {
    const early = timestampParam('sqlite', new Date('2026-11-28T09:59:59.999Z')) as string;
    const late = timestampParam('sqlite', new Date('2026-11-28T10:00:00.000Z')) as string;
    expect(early < late).toBe(true);
  });
});
