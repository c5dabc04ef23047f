/**
 * Every ```ts / ```typescript block of every README compiles (strict, against the packages'
 * sources). How a block is read (complete module, fragment, file of the example app) is set by a
 * marker comment before it: see readme-blocks.fixture.ts. A failure names the README, the line and the
 * compiler's message.
 */
import { allBlocks, isTypeScript, READMES, type ReadmeBlock } from './readme-blocks.fixture';
import { typecheckBlocks, type BlockReport } from './readme-typecheck.fixture';

const blocks = allBlocks().filter(isTypeScript);
let result: { reports: BlockReport[]; elsewhere: string[] };

const label = (b: ReadmeBlock) =>
  `${b.readme}:${b.line} (${b.role.kind === 'file' ? `file ${b.role.path}` : b.role.kind})`;

describe('README TypeScript blocks compile', () => {
  beforeAll(() => {
    result = typecheckBlocks(blocks);
  }, 120000);

  it('finds the blocks of every README and reads their markers', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(new Set(blocks.map((b) => b.readme)).size).toBeGreaterThanOrEqual(2);
    expect(READMES).toContain('libs/partner-payments/README.md');
    // The topic pages the READMEs' long material moved to are read too.
    expect(READMES).toEqual(
      expect.arrayContaining(['docs/nestjs/calling-the-partner.md', 'docs/testing/helpers.md']),
    );
    expect(blocks.some((b) => b.readme === 'docs/nestjs/calling-the-partner.md')).toBe(true);
  });

  it('reports no error outside the blocks (compiler options, library sources)', () => {
    expect(result.elsewhere).toEqual([]);
  });

  it.each(blocks.map((b) => [label(b), b] as const))('%s', (_name, block) => {
    const report = result.reports.find((r) => r.block === block);
    expect(report).toBeDefined();
    if (report!.errors.length > 0) throw new Error(`does not compile:\n${report!.errors.join('\n')}`);
  });
});
