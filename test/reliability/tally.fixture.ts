/**
 * The reliability suite's counted table (issue "Nothing lost, nothing exposed"). Each reliability
 * spec records what it tried and what it observed, per database; the e2e global teardown prints one
 * table at the end of the run. Counts come from the tests' own observations (answers received, rows
 * read back from the database, payouts listed at the sandbox), never from constants.
 *
 * Jest runs spec files in separate workers, so rows go to a JSON-lines file shared by the run: the
 * global setup sets RELIABILITY_TALLY_FILE and the teardown reads it.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

export interface ReliabilityTally {
  /** e.g. 'bad webhooks', 'SIGKILL mid-POST /payouts', 'partner faults', 'secrets scan' */
  suite: string;
  /** 'sqlite' | 'postgres' | 'n/a' */
  database: string;
  /** Inputs: hostile or malformed requests tried, answered as expected, answered wrongly. */
  inputsTried?: number;
  refusedRight?: number;
  wrong?: number;
  /** Events: authentic deliveries sent, acknowledged 2xx, rows stored, processed exactly once. */
  eventsSent?: number;
  acknowledged?: number;
  stored?: number;
  processedOnce?: number;
  /** Events acknowledged but not stored, or processed zero / more than one time. */
  lost?: number;
  duplicate?: number;
  /** Payouts: requested by callers, created at the partner, known to the app (stored). */
  payoutsRequested?: number;
  createdAtPartner?: number;
  knownToApp?: number;
  /** Payouts at the partner unknown to the app after recovery. */
  unknown?: number;
  /** Secrets or full account numbers found in logs, answers or the database. */
  leaked?: number;
}

const COLUMNS: Array<[keyof ReliabilityTally, string]> = [
  ['inputsTried', 'inputs tried'],
  ['refusedRight', 'refused right'],
  ['wrong', 'wrong'],
  ['eventsSent', 'events sent'],
  ['acknowledged', 'acknowledged'],
  ['stored', 'stored'],
  ['processedOnce', 'processed once'],
  ['payoutsRequested', 'payouts requested'],
  ['createdAtPartner', 'created at partner'],
  ['knownToApp', 'known to app'],
  ['lost', 'lost'],
  ['duplicate', 'duplicate'],
  ['unknown', 'unknown'],
  ['leaked', 'leaked'],
];

export function tallyFile(): string | undefined {
  return process.env.RELIABILITY_TALLY_FILE;
}

/** Appends one row; a no-op when the run has no tally file (a spec run outside the e2e project). */
export function recordTally(row: ReliabilityTally): void {
  const file = tallyFile();
  if (!file) return;
  appendFileSync(file, JSON.stringify(row) + '\n');
}

/**
 * One row per suite and database (a spec may record several: their counts add up), in a stable
 * order whatever order the workers finished in.
 */
export function mergeTallies(rows: ReliabilityTally[]): ReliabilityTally[] {
  const merged = new Map<string, ReliabilityTally>();
  for (const row of rows) {
    const key = `${row.suite}\u0000${row.database}`;
    const into = merged.get(key) ?? { suite: row.suite, database: row.database };
    const sums = into as unknown as Partial<Record<string, number>>;
    for (const [column] of COLUMNS) {
      const value = row[column];
      if (typeof value === 'number') sums[column] = (sums[column] ?? 0) + value;
    }
    merged.set(key, into);
  }
  return [...merged.values()].sort(
    (a, b) => a.suite.localeCompare(b.suite) || a.database.localeCompare(b.database),
  );
}

/** The table as markdown, one row per suite and database, plus a total row. */
export function renderTallyTable(recorded: ReliabilityTally[]): string {
  const rows = mergeTallies(recorded);
  const used = COLUMNS.filter(([key]) => rows.some((r) => r[key] !== undefined));
  const header = ['suite', 'database', ...used.map(([, label]) => label)];
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  const out = [line(header), line(header.map(() => '---'))];
  const total: Record<string, number> = {};
  for (const r of rows) {
    out.push(
      line([
        r.suite,
        r.database,
        ...used.map(([key]) => {
          const v = r[key];
          if (typeof v === 'number') total[key] = (total[key] ?? 0) + v;
          return v === undefined ? '' : String(v);
        }),
      ]),
    );
  }
  out.push(line(['**total**', '', ...used.map(([key]) => String(total[key] ?? ''))]));
  return out.join('\n');
}

export function readTallies(file: string): ReliabilityTally[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ReliabilityTally);
}
