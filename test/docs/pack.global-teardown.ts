import { rmSync } from 'node:fs';

/** globalTeardown of the `docs` Jest project: removes the tarballs pack.global-setup.ts made. */
export default function removeTarballs(): void {
  const dir = process.env.PARTNER_PAYMENTS_TARBALLS;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
