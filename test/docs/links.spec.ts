/**
 * Every relative link of the READMEs and the pages under docs/ points at a file that exists and,
 * with a `#fragment`, at a heading of that page (GitHub's anchor for it), so moving a section to
 * another page cannot leave a link behind. Links to other sites are not fetched.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { REPO_ROOT } from './readme-blocks.fixture';

/** The pages checked: the READMEs, CONTRIBUTING.md and every .md under docs/ (paths from the root). */
function pages(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? under(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : [],
    );
  const readmes = ['libs', 'apps']
    .flatMap((dir) => readdirSync(join(REPO_ROOT, dir)).map((name) => `${dir}/${name}/README.md`))
    .filter((path) => existsSync(join(REPO_ROOT, path)));
  return ['README.md', 'CONTRIBUTING.md', 'bench/README.md', ...readmes, ...under('docs')];
}

/** The page without its fenced code blocks (their lines kept blank, so line numbers hold). */
function prose(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && open) {
      fence = open[1];
      return '';
    }
    if (fence !== null) {
      if (line.trimStart().startsWith(fence)) fence = null;
      return '';
    }
    return line;
  });
}

/** GitHub's anchor for a heading: its text, lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page: its headings (a repeated one gets -1, -2, ...) and `<a id|name>`. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  }
  return out;
}

interface Link {
  page: string;
  line: number;
  target: string;
}

/** The page's inline links and images (not inside code) and its reference definitions. */
function links(page: string, text: string): Link[] {
  return prose(text).flatMap((raw, i) => {
    const line = raw.replace(/(`+)[^`]*?\1/g, '');
    const inline = [...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
    const reference = /^ {0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)/.exec(line);
    return [...inline, ...(reference ? [reference[1]] : [])].map((target) => ({ page, line: i + 1, target }));
  });
}

/** What is wrong with a link, or null. */
function problem(link: Link, cache: Map<string, Set<string>>): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return null; // https:, mailto:: another site
  const [path, fragment] = link.target.split('#', 2);
  const file = path ? normalize(join(dirname(link.page), decodeURIComponent(path))) : link.page;
  if (file.startsWith('..')) return `${link.target} leaves the repository`;
  const absolute = join(REPO_ROOT, file);
  if (!existsSync(absolute)) return `${file} does not exist`;
  if (fragment === undefined) return null;
  // TypeDoc's own in-page anchors: for a name it renders under one heading it sometimes links a
  // numbered twin (`#inboxentrystate-1`) that GitHub does not make. Its output is not edited by
  // hand (npm run docs:api), so only its links to files are checked here.
  if (link.page.startsWith('docs/api/') && !path) return null;
  if (statSync(absolute).isDirectory() || !file.endsWith('.md')) return `#${fragment} on ${file}, not a page`;
  if (!cache.has(file)) cache.set(file, anchors(readFileSync(absolute, 'utf8')));
  return cache.get(file)!.has(fragment) ? null : `${file} has no heading #${fragment}`;
}

describe('links between the READMEs and the docs pages', () => {
  const all = pages().flatMap((page) => links(page, readFileSync(join(REPO_ROOT, page), 'utf8')));

  it('finds the pages and their links', () => {
    const checked = new Set(all.map((l) => l.page));
    for (const page of ['README.md', 'libs/partner-payments/README.md', 'docs/reference-app/endpoints.md'])
      expect(checked).toContain(page);
    expect(all.filter((l) => l.target.includes('#')).length).toBeGreaterThan(20);
  });

  it('makes the anchors GitHub makes', () => {
    expect(slug('Install into an existing Nest app')).toBe('install-into-an-existing-nest-app');
    expect(slug("Replicas and the partner's rate limit")).toBe('replicas-and-the-partners-rate-limit');
    expect(slug('Memo (`extra_info.memo`)')).toBe('memo-extra_infomemo');
    expect(slug('Document uploads (spec 4.2, 7.3, 8)')).toBe('document-uploads-spec-42-73-8');
    expect([...anchors('# A\n\n```\n# not a heading\n```\n## A\n')]).toEqual(['a', 'a-1']);
  });

  it('every relative link points at an existing file and heading', () => {
    const cache = new Map<string, Set<string>>();
    const broken = all.flatMap((link) => {
      const why = problem(link, cache);
      return why ? [`${relative('.', link.page)}:${link.line} (${link.target}): ${why}`] : [];
    });
    expect(broken).toEqual([]);
  });
});
