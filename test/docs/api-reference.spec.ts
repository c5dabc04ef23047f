/**
 * The API reference under docs/api/ is what TypeDoc makes of the packages' public surface today:
 * a changed export or JSDoc without `npm run docs:api` fails here, and so does a TypeDoc warning
 * (a broken {@link}, an unknown tag).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_PAGES, generatePage } from '../../scripts/api-reference';

const root = join(__dirname, '..', '..');

describe('API reference (docs/api, TypeDoc)', () => {
  it.each(API_PAGES.map((p) => [p.page, p] as const))(
    '%s is current (npm run docs:api)',
    (page, pkg) => {
      const generated = generatePage(pkg);
      expect(generated).toContain(`# ${pkg.name}`);
      expect(
        readFileSync(join(root, page), 'utf8') === generated
          ? 'current'
          : `${page} is stale: run npm run docs:api`,
      ).toBe('current');
    },
    120_000,
  );

  it('every README of a package links its page', () => {
    for (const pkg of API_PAGES) {
      const readme = readFileSync(join(root, pkg.dir, 'README.md'), 'utf8');
      expect(readme).toContain(`../../${pkg.page}`);
    }
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('docs/api/nestjs.md');
  });
});
