import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { preparedQuery } from '@partner-payments/typeorm/sql';

/**
 * One projection row by its primary key, in statements built once from the entity's metadata
 * because the webhook handlers run once per inbox entry, and TypeORM's query builder and
 * save() (which reads the row again to diff it) cost more than the statements themselves, and on
 * PostgreSQL every statement is a round trip. Values go through the driver's own conversions, so
 * a row reads and writes exactly as TypeORM would.
 *
 * - `apply`: what the handlers use. A new row is one INSERT on either database. An existing row:
 *   on PostgreSQL the same statement returns it locked (ON CONFLICT DO UPDATE SET key = key takes
 *   the row lock, waiting for a transaction holding it), then one UPDATE; on SQLite the INSERT
 *   does nothing, the row is read by its key, then one UPDATE (one writer: nothing changes it in
 *   between). Two first events for one row never collide.
 * - `write`: one UPDATE of every column by the key.
 */
/** The column `apply`'s upsert adds to the row it returns: true when it inserted it. */
const INSERTED = 'projection_inserted';

export class ProjectionTable<T extends ObjectLiteral> {
  private readonly columns: ColumnMetadata[];
  private readonly key: ColumnMetadata;
  private readonly table: string;
  private readonly updateSql: string;
  private applyText: string | null = null;
  private selectText: string | null = null;

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
   * A new row costs ONE statement: it is inserted as it will be (every column NULL but
   * `values`, then `change` applied). PostgreSQL: one round trip
   * instead of two. SQLite: one row write instead of an upsert and the UPDATE rewriting it,
   * statements that dominate a processed user.created; an existing row
   * is then read by its key, changed and written (SQLite has one writer, and the PartnerUnitOfWork
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
    this.selectText ??=
      `SELECT ${this.columns.map((c) => this.q(c.databaseName)).join(', ')} FROM ${this.q(this.table)} ` +
      `WHERE ${this.q(this.key.databaseName)} = ${this.p(1)}`;
    return this.selectText;
  }

  /** Writes every column of `row` back (one UPDATE by its key). */
  async write(m: EntityManager, row: T): Promise<T> {
    const params = this.columns.map((c) =>
      this.dataSource.driver.preparePersistentValue(c.getEntityValue(row), c),
    );
    await preparedQuery(m, `projection_${this.table}_write`, this.updateSql, params);
    return row;
  }

  private q(name: string): string {
    return this.dataSource.driver.escape(name);
  }

  private p(i: number): string {
    return this.dataSource.options.type === 'postgres' ? `$${i}` : '?';
  }
}
