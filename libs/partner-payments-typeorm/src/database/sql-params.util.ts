import { timestampParam, type PartnerDatabaseKind } from './sql-dialect.util';

/**
 * Parameters of one raw statement in the database's placeholder style. `add` answers the
 * placeholder and records the value; call it in the order the placeholders appear in the text
 * (SQLite's `?` are positional), which a template literal does by evaluating left to right.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  constructor(readonly kind: PartnerDatabaseKind) {}

  add(value: unknown): string {
    this.values.push(value instanceof Date ? timestampParam(this.kind, value) : value);
    return this.kind === 'postgres' ? `$${this.values.length}` : '?';
  }

  /** `column IN (...)` over a list given as one parameter (an array on PostgreSQL, JSON on SQLite). */
  inList(column: string, values: readonly string[]): string {
    return this.kind === 'postgres'
      ? `${column} = ANY(${this.add([...values])}::varchar[])`
      : `${column} IN (SELECT value FROM json_each(${this.add(JSON.stringify(values))}))`;
  }
}
