/**
 * CONTRIBUTING's "Naming and limits" on the repository as it is: no import cycle, source files under
 * 250 lines and test files at most 400, no folder with more than 20 files flat, files named
 * `<name>.<role>.ts`, no issue numbers or design-note references in libs and apps. Each test fails with the list of offenders. limits-checks.spec.ts shows each
 * check failing on a planted offender.
 */
import { join } from 'node:path';
import { historyMarkers, longFiles, misnamedFiles, wideFolders } from './file-limits.util';
import { compilerOptionsOf, importCycles, importGraph, pathTargets } from './import-cycles.util';
import { codeFiles, repoFiles } from './repo-files.util';

const ROOT = join(__dirname, '..', '..');
const files = repoFiles(ROOT);
const code = codeFiles(files);

describe("CONTRIBUTING's limits on the repository", () => {
  it('has no import cycle among the TypeScript of libs, apps, test, bench and scripts', () => {
    const options = compilerOptionsOf(ROOT);
    const graph = importGraph(
      ROOT,
      code.filter((path) => path.endsWith('.ts')),
      options,
    );
    // The scan reached the packages through their names, or a cycle through them would go unseen.
    expect(graph.get('libs/partner-payments-typeorm/src/payouts/payout-outbox.service.ts')).toContain(
      'libs/partner-payments/src/index.ts',
    );
    expect(importCycles(graph)).toEqual([]);
  });

  it('keeps source files under 250 lines and test files at most 400', () => {
    expect(longFiles(ROOT, code)).toEqual([]);
  });

  it('keeps every folder at most 20 files flat', () => {
    expect(wideFolders(files)).toEqual([]);
  });

  it('names TypeScript files <name>.<role>.ts in kebab-case', () => {
    expect(misnamedFiles(code, pathTargets(ROOT, compilerOptionsOf(ROOT)))).toEqual([]);
  });

  it('names no issue, defect or stop number, nor DESIGN, in the files of libs and apps', () => {
    expect(historyMarkers(ROOT, files)).toEqual([]);
  });
});
