/**
 * Writes the sandbox's fidelity table (docs/testing/fidelity.md) from the conformance probes (the
 * probes are its single source). `npm run fidelity:table` rewrites it; `-- --check` only reports a difference
 * (exit 1), as test/conformance/fidelity-table.e2e-spec.ts does in CI.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  fidelityTableInSync,
  withFidelityTable,
} from '../libs/partner-payments-testing/src/conformance/fidelity-table.util';

const FIDELITY_PAGE = 'docs/testing/fidelity.md';
const pagePath = join(__dirname, '..', FIDELITY_PAGE);
const current = readFileSync(pagePath, 'utf8');
const generated = withFidelityTable(current);
if (process.argv.includes('--check')) {
  if (!fidelityTableInSync(current)) {
    console.error(`${FIDELITY_PAGE}: the fidelity table differs from the probes; run npm run fidelity:table`);
    process.exit(1);
  }
  console.log('fidelity table up to date');
} else if (fidelityTableInSync(current)) {
  console.log('fidelity table already up to date');
} else {
  writeFileSync(pagePath, generated);
  console.log(`fidelity table written to ${FIDELITY_PAGE}`);
}
