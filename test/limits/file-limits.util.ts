/**
 * CONTRIBUTING's "Naming and limits", each as a function from the repository's files (paths relative
 * to `root`, from `repoFiles`) to the offenders, one readable line each.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

export const SOURCE_LINES_BELOW = 250;
export const TEST_LINES_AT_MOST = 400;
export const FILES_PER_FOLDER_AT_MOST = 20;

/** The roles of CONTRIBUTING's table: the last part of a file name before `.ts`. */
export const ROLES = new Set([
  'module',
  'controller',
  'service',
  'guard',
  'decorator',
  'middleware',
  'filter',
  'providers',
  'types',
  'model',
  'dto',
  'entity',
  'constants',
  'errors',
  'options',
  'config',
  'util',
  'policy',
  'rules',
  'store',
  'client',
  'routes',
  'probes',
  'migration',
  'spec',
  'e2e-spec',
  'fixture',
  'bench',
  'global-setup',
  'global-teardown',
  'typecheck',
]);

const TEST_FILE = /\.(spec|e2e-spec)\.ts$/;
const CODE_FILE = /\.(ts|js|mjs|cjs)$/;

/** Lines as an editor numbers them (a final newline does not open another line). */
function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/** Source files of 250 lines or more ("under 250"), test files (specs, e2e specs) of more than 400. */
export function longFiles(root: string, codeFiles: readonly string[]): string[] {
  const offenders: string[] = [];
  for (const path of codeFiles) {
    if (!CODE_FILE.test(path)) continue;
    const lines = lineCount(readFileSync(join(root, path), 'utf8'));
    if (TEST_FILE.test(path)) {
      if (lines > TEST_LINES_AT_MOST) offenders.push(`${path}: ${lines} lines (a test file: at most 400)`);
    } else if (lines >= SOURCE_LINES_BELOW) {
      offenders.push(`${path}: ${lines} lines (a source file: under 250)`);
    }
  }
  return offenders;
}

/**
 * Folders holding more than 20 files directly (every kind of file git tracks or would track; the
 * files of subfolders count for the subfolder). `.changeset/` is left out: the Changesets tool reads
 * one flat folder, and each release empties it.
 */
export function wideFolders(files: readonly string[]): string[] {
  const perFolder = new Map<string, number>();
  for (const path of files) {
    const folder = posix.dirname(path);
    if (folder === '.changeset') continue;
    perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
  }
  return [...perFolder]
    .filter(([, count]) => count > FILES_PER_FOLDER_AT_MOST)
    .map(([folder, count]) => `${folder === '.' ? '(root)' : folder}/: ${count} files (at most 20)`)
    .sort();
}

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Commands run by path, named for what they do as the READMEs call them (with `scripts/*.ts`). */
export const BENCH_COMMANDS = new Set([
  'bench/run-all.ts',
  'bench/instructions/instructions.ts',
  'bench/instrumentation/instrumentation-span-floor.ts',
  'bench/replicas-profile.ts',
]);

/**
 * TypeScript files named `<name>.<role>.ts`: kebab-case parts, the last one a role of the table (a
 * spec keeps its source's name: `app.config.spec.ts`). Without a role: `index.ts`, `main.ts`, a
 * package's other entry points (`entryPoints`: the targets of tsconfig's `paths`), the commands
 * (directly in `scripts/`, and `BENCH_COMMANDS`) and declaration files (`*.d.ts`, named after the
 * JavaScript they describe).
 */
export function misnamedFiles(codeFiles: readonly string[], entryPoints: ReadonlySet<string>): string[] {
  const offenders: string[] = [];
  for (const path of codeFiles) {
    if (!path.endsWith('.ts') || path.endsWith('.d.ts')) continue;
    const base = posix.basename(path);
    if (base === 'index.ts' || base === 'main.ts' || entryPoints.has(path)) continue;
    if (posix.dirname(path) === 'scripts' || BENCH_COMMANDS.has(path)) continue;
    const parts = base.slice(0, -'.ts'.length).split('.');
    const role = parts[parts.length - 1];
    if (parts.length < 2) {
      offenders.push(`${path}: no role (<name>.<role>.ts)`);
    } else if (!parts.every((part) => KEBAB.test(part))) {
      offenders.push(`${path}: not kebab-case`);
    } else if (!ROLES.has(role)) {
      offenders.push(`${path}: "${role}" is not a role of CONTRIBUTING's table`);
    }
  }
  return offenders;
}

/** The folders whose files (comments, READMEs, examples) must carry no project history. */
export const HISTORY_ROOTS = ['libs', 'apps'] as const;
/** Issue and defect numbers, review stops, design-note references: history, for commit messages. */
export const HISTORY_MARKER = /\b(issue|defect|stop) [0-9]+|DESIGN/;

/** Lines of the text files under HISTORY_ROOTS that name project history, as `path:line: text`. */
export function historyMarkers(root: string, files: readonly string[]): string[] {
  const offenders: string[] = [];
  for (const path of files) {
    if (!HISTORY_ROOTS.some((dir) => path.startsWith(`${dir}/`))) continue;
    const text = readFileSync(join(root, path), 'utf8');
    if (text.includes('\0')) continue; // a binary file has no comments
    text.split('\n').forEach((line, i) => {
      if (HISTORY_MARKER.test(line)) offenders.push(`${path}:${i + 1}: ${line.trim()}`);
    });
  }
  return offenders;
}
