/**
 * globalSetup of the `docs` Jest project: builds the three packages and packs them as a user would
 * (the commands of the packages' README install sections), into a temp folder the
 * consumer-app spec installs from. Done here, once and before any test runs, so the build never
 * races the sandbox CLI suite's own `tsc -b` of the same dist/.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function packPackages(): void {
  const root = join(__dirname, '..', '..');
  const destination = mkdtempSync(join(tmpdir(), 'partner-payments-pack-'));
  const npm = (args: string[]) =>
    execFileSync('npm', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  npm(['run', 'build:libs']);
  npm([
    'pack',
    '-w',
    '@partner-payments/nestjs',
    '-w',
    '@partner-payments/testing',
    '-w',
    '@partner-payments/typeorm',
    '--pack-destination',
    destination,
  ]);
  process.env.PARTNER_PAYMENTS_TARBALLS = destination;
}
