/**
 * The sandbox's fidelity table (docs/testing/fidelity.md) is generated from the conformance probes:
 * this fails when the page and the probes differ (fix: npm run fidelity:table).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFORMANCE_PROBES } from '@partner-payments/testing';
import {
  fidelityTable,
  fidelityTableInSync,
  normaliseTable,
  withFidelityTable,
} from '../../libs/partner-payments-testing/src/conformance/fidelity-table.util';

const readme = readFileSync(join(__dirname, '../../docs/testing/fidelity.md'), 'utf8');

describe('sandbox fidelity table (docs/testing/fidelity.md)', () => {
  it('is exactly the table generated from the probes (run `npm run fidelity:table` after changing a probe)', () => {
    expect(fidelityTableInSync(readme)).toBe(true);
  });

  it('has one row per probe, with its source and whether it writes', () => {
    const table = fidelityTable();
    const rows = table.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows).toHaveLength(CONFORMANCE_PROBES.length);
    expect(table).toContain('| `recipients.idempotency-conflict` |');
    expect(rows.find((r) => r.includes('`users.no-instant-verification`'))).toMatch(
      /evidence \[D known-limitations\].*\| yes \|$/,
    );
  });

  it('detects a drifted table and a missing marker, and ignores column padding (prettier)', () => {
    const drifted = readme.replace('| `auth.token` |', '| `auth.token-renamed` |');
    expect(fidelityTableInSync(drifted)).toBe(false);
    const padded = withFidelityTable(readme)
      .replace(/\| `auth\.token` \|/, '|   `auth.token`      |')
      .replace('|---|---|', '| ----- | --- |');
    expect(fidelityTableInSync(padded)).toBe(true);
    expect(normaliseTable('| a  |  b |\n| --- | ---- |')).toEqual(['|a|b|', '|---|---|']);
    expect(() => withFidelityTable('# no markers')).toThrow(/fidelity:begin/);
  });
});
