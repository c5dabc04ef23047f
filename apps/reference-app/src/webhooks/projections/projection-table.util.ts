import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { preparedQuery } from '../../database/prepared-query.util';

/**
 * One projection row by its primary key in two statements built once from the entity's metadata
 * (issue 14): the webhook handlers run once per inbox entry, and TypeORM's query builder and
 * save() (which reads the row again to diff it) cost more than the statements themselves, and on
 * PostgreSQL every statement is a round trip. Values go through the driver's own conversions, so
 * a row reads and writes exactly as TypeORM would.
 *
 * - `claim`: insert-or-ignore of the row, and the row back locked for the transaction, in ONE
 *   statement: INSERT ... ON CONFLICT (key) DO UPDATE SET key = key RETURNING * (the no-op
 *   update takes the row lock on PostgreSQL, waiting for a transaction holding it, as FOR UPDATE
 *   did; SQLite has one writer). Two first events for one row never collide.
 * - `write`: one UPDATE of every column by the key.
 * - `apply`: what the handlers use; a new row in one statement on either database (see there).
 */
/** The column `apply`'s upsert adds to the row it returns: true when it inserted it. */
const INSERTED = 'projection_inserted';

export class ProjectionTable<T extends ObjectLiteral> {
  private readonly columns: ColumnMetadata[];
  private readonly key: ColumnMetadata;
  private readonly table: string;
  private readonly updateSql: string;
  private readonly claims = new Map<string, { name: string; sql: string; columns: ColumnMetadata[] }>();
  private applyText: string | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly entity: EntityTarget<T>,
  ) {
    const meta = dataSource.getMetadata(entity);
    if (meta.primaryColumns.length !== 1)
      throw new Error(`${meta.tableName}: one primary key column expected`);
    this.key = meta.primaryColumns[0];
    this.table = meta.tableName;
    // The key last: the UPDATE binds every other column, then the key in its WHERE.
    this.columns = [...meta.columns.filter((c) => c !== this.key), this.key];
    const others = this.columns.slice(0, -1);
    this.updateSql =
      `UPDATE ${this.q(this.table)} SET ${others.map((c, i) => `${this.q(c.databaseName)} = ${this.p(i + 1)}`).join(', ')} ` +
      `WHERE ${this.q(this.key.databaseName)} = ${this.p(others.length + 1)}`;
  }

  /**
   * The row with key `id`, created from `values` (property name -> value, the key included) when
   * absent, locked for the transaction.
   */
  async claim(m: EntityManager, values: Partial<T>): Promise<T> {
    const claim = this.claimStatement(Object.keys(values));
    const params = claim.columns.map((c) =>
      this.dataSource.driver.preparePersistentValue(c.getEntityValue(values), c),
    );
    const [raw] = await preparedQuery(m, claim.name, claim.sql, params);
    if (!raw) throw new Error(`${this.table}: the upsert returned no row`);
    return this.hydrate(m, raw);
  }

  /** An entity from a returned row, through the driver's own conversions. */
  private hydrate(m: EntityManager, raw: Record<string, unknown>): T {
    const row = m.create(this.entity);
    for (const column of this.columns) {
      column.setEntityValue(
        row,
        this.dataSource.driver.prepareHydratedValue(raw[column.databaseName], column),
      );
    }
    return row;
  }

  /**
   * Inserts every column, or leaves the existing row alone; either way the row back when it was
   * inserted. PostgreSQL: ON CONFLICT DO UPDATE SET key = key returns the existing row too, locked,
   * and says which happened (`xmax = 0`). SQLite: ON CONFLICT DO NOTHING returns no row for an
   * existing one (RETURNING gives the rows the statement wrote), which is then read by its key.
   */
  private get applySql(): string {
    if (this.applyText) return this.applyText;
    const key = this.q(this.key.databaseName);
    const names = this.columns.map((c) => this.q(c.databaseName));
    const insert =
      `INSERT INTO ${this.q(this.table)} (${names.join(', ')}) ` +
      `VALUES (${names.map((_, i) => this.p(i + 1)).join(', ')}) `;
    this.applyText =
      this.dataSource.options.type === 'postgres'
        ? `${insert}ON CONFLICT (${key}) DO UPDATE SET ${key} = EXCLUDED.${key} ` +
          `RETURNING ${names.join(', ')}, (xmax = 0) AS ${INSERTED}`
        : `${insert}ON CONFLICT (${key}) DO NOTHING RETURNING ${names.join(', ')}`;
    return this.applyText;
  }

  /**
   * The row with key `values`' key after `change`: created with `values` and `change` applied when
   * absent, else read (locked on PostgreSQL), changed and written back. `change` must depend on the
   * row only.
   *
   * A new row costs ONE statement (issue 14): it is inserted as it will be, the row as claim would
   * create it (every column NULL but `values`) with `change` applied. PostgreSQL: one round trip
   * instead of two. SQLite: one row write instead of claim's insert and the UPDATE rewriting it
   * (the ingest profile spent ~40 µs of statements per processed user.created); an existing row
   * is then read by its key, changed and written (SQLite has one writer, and the UnitOfWork
   * serializes every flow on its one connection, so nothing changes it in between).
   */
  async apply(m: EntityManager, values: Partial<T>, change: (row: T) => void): Promise<T> {
    const fresh = m.create(this.entity);
    for (const column of this.columns) column.setEntityValue(fresh, null);
    for (const [property, value] of Object.entries(values))
      (fresh as Record<string, unknown>)[property] = value;
    change(fresh);
    const params = this.columns.map((c) =>
      this.dataSource.driver.preparePersistentValue(c.getEntityValue(fresh), c),
    );
    const [raw] = await preparedQuery(m, `projection_${this.table}_apply`, this.applySql, params);
    let row: T;
    if (this.dataSource.options.type === 'postgres') {
      if (!raw) throw new Error(`${this.table}: the upsert returned no row`);
      row = this.hydrate(m, raw);
      if (raw[INSERTED] === true) return row;
    } else {
      if (raw) return this.hydrate(m, raw);
      const [existing] = await preparedQuery(m, `projection_${this.table}_read`, this.selectSql, [
        params[params.length - 1], // the key: this.columns ends with it
      ]);
      if (!existing) throw new Error(`${this.table}: the row neither inserted nor found`);
      row = this.hydrate(m, existing);
    }
    change(row);
    return this.write(m, row);
  }

  /** SQLite: the row by its key (apply's existing row). */
  private get selectSql(): string {
    return (
      `SELECT ${this.columns.map((c) => this.q(c.databaseName)).join(', ')} FROM ${this.q(this.table)} ` +
      `WHERE ${this.q(this.key.databaseName)} = ${this.p(1)}`
    );
  }

  /** Writes every column of `row` back (one UPDATE by its key). */
  async write(m: EntityManager, row: T): Promise<T> {
    const params = this.columns.map((c) =>
      this.dataSource.driver.preparePersistentValue(c.getEntityValue(row), c),
    );
    await preparedQuery(m, `projection_${this.table}_write`, this.updateSql, params);
    return row;
  }

  /** The upsert for one set of given properties (each handler gives the same set every time). */
  private claimStatement(properties: string[]) {
    const signature = properties.join(',');
    let claim = this.claims.get(signature);
    if (!claim) {
      const columns = properties.map((name) => {
        const column = this.columns.find((c) => c.propertyName === name);
        if (!column) throw new Error(`${this.table}: no column for property ${name}`);
        return column;
      });
      const key = this.q(this.key.databaseName);
      const sql =
        `INSERT INTO ${this.q(this.table)} (${columns.map((c) => this.q(c.databaseName)).join(', ')}) ` +
        `VALUES (${columns.map((_, i) => this.p(i + 1)).join(', ')}) ` +
        `ON CONFLICT (${key}) DO UPDATE SET ${key} = EXCLUDED.${key} ` +
        `RETURNING ${this.columns.map((c) => this.q(c.databaseName)).join(', ')}`;
      claim = { name: `projection_${this.table}_claim_${this.claims.size}`, sql, columns };
      this.claims.set(signature, claim);
    }
    return claim;
  }

  private q(name: string): string {
    return this.dataSource.driver.escape(name);
  }

  private p(i: number): string {
    return this.dataSource.options.type === 'postgres' ? `$${i}` : '?';
  }
}
