/**
 * Writes the sandbox README's fidelity table from the conformance probes (issue 12: the probes are
 * its single source). `npm run fidelity:table` rewrites it; `-- --check` only reports a difference
 * (exit 1), as test/conformance/fidelity-table.e2e-spec.ts does in CI.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  fidelityTableInSync,
  withFidelityTable,
} from '../libs/partner-payments-testing/src/conformance/fidelity-table.util';

const readmePath = join(__dirname, '..', 'libs/partner-payments-testing/README.md');
const current = readFileSync(readmePath, 'utf8');
const generated = withFidelityTable(current);
if (process.argv.includes('--check')) {
  if (!fidelityTableInSync(current)) {
    console.error(
      'libs/partner-payments-testing/README.md: the fidelity table differs from the probes; run npm run fidelity:table',
    );
    process.exit(1);
  }
  console.log('fidelity table up to date');
} else if (fidelityTableInSync(current)) {
  console.log('fidelity table already up to date');
} else {
  writeFileSync(readmePath, generated);
  console.log('fidelity table written to libs/partner-payments-testing/README.md');
}
