import { describeDatabase, parseDatabaseUrl } from './database-url.util';

describe('parseDatabaseUrl', () => {
  it('resolves a relative sqlite path against the working directory', () => {
    expect(parseDatabaseUrl('sqlite:./data/app.sqlite', '/srv/app')).toEqual({
      kind: 'sqlite',
      path: '/srv/app/data/app.sqlite',
    });
  });

  it('keeps an absolute sqlite path and accepts sqlite:// and :memory:', () => {
    expect(parseDatabaseUrl('sqlite:/var/db.sqlite')).toEqual({ kind: 'sqlite', path: '/var/db.sqlite' });
    expect(parseDatabaseUrl('sqlite:///var/db.sqlite')).toEqual({ kind: 'sqlite', path: '/var/db.sqlite' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ kind: 'sqlite', path: ':memory:' });
  });

  it('selects PostgreSQL for postgres:// and postgresql://', () => {
    expect(parseDatabaseUrl('postgres://u:p@db:5432/app').kind).toBe('postgres');
    expect(parseDatabaseUrl('postgresql://u:p@db/app').kind).toBe('postgres');
  });

  it('refuses anything else, naming the variable', () => {
    expect(() => parseDatabaseUrl('mysql://x')).toThrow(/DATABASE_URL/);
    expect(() => parseDatabaseUrl('./file.sqlite')).toThrow(/DATABASE_URL/);
  });

  it('describes a PostgreSQL URL without its password', () => {
    const text = describeDatabase(parseDatabaseUrl('postgres://app:s3cret@db.internal:6543/payments'));
    expect(text).toBe('PostgreSQL db.internal:6543/payments');
    expect(text).not.toContain('s3cret');
  });
});
