/**
 * Code blocks of the READMEs and of the topic pages under docs/, for the tests that keep them true:
 * readme-blocks.spec.ts typechecks every ```ts block, consumer-app.spec.ts builds an app from the
 * quick-start blocks.
 *
 * A block's role comes from an HTML comment right before its fence (blank lines allowed between;
 * invisible on a rendered page):
 *   (none)                      a complete TypeScript module: compiled on its own, as written.
 *   <!-- fragment -->           a part of a program: compiled as an ES module (top-level await allowed)
 *                               with imports added for the names it uses that the packages export
 *                               (FRAGMENT_MODULES, first match wins); free variables are errors.
 *   <!-- fragment: <TS> -->     the same, with <TS> put before the block: the declarations of its free
 *                               variables and any other import, e.g. `declare const payoutId: string;`.
 *   <!-- file: <path> -->       a file of the README's example app, written as is at <path> by the
 *                               consumer-app tests; the .ts ones compile together (with EXISTING_APP_FILES,
 *                               the app they are added to), so `./app.module.js` resolves.
 *   <!-- consumer-app: <what> --> a non-TypeScript step the consumer-app test runs (`install`,
 *                               `package.json`: merged into the app's package.json).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

/** The folders of the topic pages each package README links under "Read more". */
export const DOC_PAGE_DIRS = ['docs/nestjs', 'docs/testing', 'docs/reference-app'];

/** The `.md` pages of DOC_PAGE_DIRS, sorted (paths relative to the repository root). */
export function docPages(): string[] {
  return DOC_PAGE_DIRS.flatMap((dir) =>
    readdirSync(join(REPO_ROOT, dir))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `${dir}/${name}`),
  );
}

/**
 * Every README and topic page whose TypeScript must compile (paths relative to the repository
 * root). docs/api/ is TypeDoc's output, checked by api-reference.spec.ts.
 */
export const READMES = [
  'README.md',
  'libs/partner-payments/README.md',
  'libs/partner-payments-testing/README.md',
  'libs/partner-payments-typeorm/README.md',
  'apps/reference-app/README.md',
  'bench/README.md',
  ...docPages(),
];

/**
 * The app the README's example files are added to: the files of an app made by `nest new` that the
 * README's AppModule keeps (it lists AppController and AppService next to its own). The typecheck
 * compiles the README's files with these; the consumer app made by the real `nest new` has its own,
 * and the CommonJS scaffold of the Jest route writes these.
 */
export const EXISTING_APP_FILES: Record<string, string> = {
  'src/app.service.ts': `import { Injectable } from '@nestjs/common';

@Injectable()
export class AppService {
  getHello(): string {
    return 'Hello World!';
  }
}
`,
  'src/app.controller.ts': `import { Controller, Get } from '@nestjs/common';
import { AppService } from './app.service.js';

@Controller()
export class AppController {
  constructor(private readonly appService: AppService) {}

  @Get()
  getHello(): string {
    return this.appService.getHello();
  }
}
`,
};

/** Where a fragment's unimported names are looked up, in this order. */
export const FRAGMENT_MODULES = [
  '@partner-payments/nestjs',
  '@partner-payments/nestjs/models',
  '@partner-payments/nestjs/errors',
  '@partner-payments/nestjs/webhooks',
  '@partner-payments/nestjs/inbox',
  '@partner-payments/nestjs/transport',
  '@partner-payments/nestjs/observability',
  '@partner-payments/testing',
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/testing',
  '@nestjs/event-emitter',
  '@nestjs/config',
  '@nestjs/platform-express',
];

export type BlockRole =
  | { kind: 'module' }
  | { kind: 'fragment'; prelude: string }
  | { kind: 'file'; path: string }
  | { kind: 'consumer-app'; step: string };

export interface ReadmeBlock {
  /** README path relative to the repository root. */
  readme: string;
  /** 1-based line of the first line of code (the line after the opening fence). */
  line: number;
  lang: string;
  code: string;
  role: BlockRole;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([\w+-]*)/;
const TS_LANGS = new Set(['ts', 'typescript']);

export function isTypeScript(block: ReadmeBlock): boolean {
  return TS_LANGS.has(block.lang);
}

/** The HTML comment that ends on the last non-blank line before `index`, if any. */
function markerBefore(lines: string[], index: number): string | null {
  let end = index - 1;
  while (end >= 0 && lines[end].trim() === '') end--;
  if (end < 0 || !lines[end].trimEnd().endsWith('-->')) return null;
  let start = end;
  while (start >= 0 && !lines[start].includes('<!--')) start--;
  if (start < 0) return null;
  const text = lines.slice(start, end + 1).join('\n');
  return text.slice(text.indexOf('<!--') + 4, text.lastIndexOf('-->')).trim();
}

function roleOf(marker: string | null, where: string): BlockRole {
  if (marker === null) return { kind: 'module' };
  const match = /^([\w-]+)\s*(?::\s*([\s\S]*))?$/.exec(marker);
  const name = match?.[1];
  const arg = match?.[2]?.trim() ?? '';
  if (name === 'fragment') return { kind: 'fragment', prelude: arg };
  if (name === 'file' && arg) return { kind: 'file', path: arg };
  if (name === 'consumer-app' && arg) return { kind: 'consumer-app', step: arg };
  // Any other comment before a block (prose, a prettier-ignore) says nothing about it.
  if (!['fragment', 'file', 'consumer-app'].includes(name ?? '')) return { kind: 'module' };
  throw new Error(`${where}: malformed block marker <!-- ${marker} -->`);
}

export function readBlocks(
  readme: string,
  text = readFileSync(join(REPO_ROOT, readme), 'utf8'),
): ReadmeBlock[] {
  const lines = text.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let close = i + 1;
    while (close < lines.length && !lines[close].trimStart().startsWith(fence)) close++;
    const code = lines
      .slice(i + 1, close)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
      .join('\n');
    blocks.push({
      readme,
      line: i + 2,
      lang: lang.toLowerCase(),
      code,
      role: roleOf(markerBefore(lines, i), `${readme}:${i + 1}`),
    });
    i = close;
  }
  return blocks;
}

export function allBlocks(): ReadmeBlock[] {
  return READMES.flatMap((readme) => readBlocks(readme));
}
