/**
 * The files the limits apply to: what git tracks plus new files it would track (not ignored), so a
 * file counts before its first `git add` and build output (`dist/`, `node_modules/`) never does.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The folders whose TypeScript the naming, length and import-cycle checks read. */
export const CODE_ROOTS = ['libs', 'apps', 'test', 'bench', 'scripts'] as const;

/** Paths relative to `root`, with `/` separators, sorted; files deleted from the work tree left out. */
export function repoFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const paths = new Set(out.split('\0').filter((path) => path !== ''));
  return [...paths].filter((path) => existsSync(join(root, path))).sort();
}

/** The files under the code roots. */
export function codeFiles(files: readonly string[]): string[] {
  return files.filter((path) => CODE_ROOTS.some((dir) => path.startsWith(`${dir}/`)));
}
