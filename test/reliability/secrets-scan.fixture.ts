/**
 * The secrets scan's instruments: where to look (every table's every column, the SQLite file and
 * its WAL as bytes, captured logs and process output, HTTP answers) and what to look for.
 */
import { existsSync, readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import type { DatabaseKind } from '../../apps/reference-app/src/database/database-url.util';

export interface Needle {
  /** What it is ('api key', 'full account number (ACH sender)'...), never the value. */
  name: string;
  value: string;
}

export interface Finding {
  where: string;
  secret: string;
}

/** Every place in `haystacks` holding a needle; values at least 8 characters, so a find is real. */
export function findSecrets(needles: Needle[], haystacks: Array<{ where: string; text: string }>): Finding[] {
  for (const n of needles)
    if (n.value.length < 8) throw new Error(`needle '${n.name}' is too short to scan for`);
  const found: Finding[] = [];
  for (const { where, text } of haystacks) {
    for (const needle of needles) if (text.includes(needle.value)) found.push({ where, secret: needle.name });
  }
  return found;
}

/** Every row of every table of the database, one haystack per table (values as text). */
export async function tableDumps(
  dataSource: DataSource,
  kind: DatabaseKind,
): Promise<Array<{ where: string; text: string }>> {
  const tables: Array<{ name: string }> =
    kind === 'postgres'
      ? await dataSource.query(
          `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
        )
      : await dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'table'`);
  const dumps = [];
  for (const { name } of tables) {
    // PostgreSQL: the row cast to text shows every column (bytea as hex, timestamps as text).
    const rows: unknown[] = await dataSource.query(
      kind === 'postgres' ? `SELECT t::text AS row FROM "${name}" t` : `SELECT * FROM "${name}"`,
    );
    dumps.push({ where: `table ${name} (${rows.length} rows)`, text: JSON.stringify(rows) });
  }
  if (dumps.length < 8) throw new Error(`only ${dumps.length} tables found: the scan would miss some`);
  return dumps;
}

/** The SQLite database file and what is left of its WAL, as bytes (free pages and old versions included). */
export function sqliteFiles(path: string): Array<{ where: string; text: string }> {
  return [path, `${path}-wal`, `${path}-journal`]
    .filter((file) => existsSync(file))
    .map((file) => ({ where: `file ${file}`, text: readFileSync(file).toString('latin1') }));
}

/** Tees everything written to stdout and stderr while `capture` is on. */
export function captureProcessOutput(): { text(): string; stop(): void } {
  const chunks: string[] = [];
  const originals = [process.stdout.write, process.stderr.write] as const;
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      chunks.push(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
      return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
  }
  return {
    text: () => chunks.join(''),
    stop: () => {
      process.stdout.write = originals[0];
      process.stderr.write = originals[1];
    },
  };
}
