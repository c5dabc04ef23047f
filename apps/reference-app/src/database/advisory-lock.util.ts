import { createHash } from 'node:crypto';

/** A stable signed 64-bit key per job name, namespaced so other apps on the database do not collide. */
export function advisoryLockKey(name: string): string {
  return createHash('sha256')
    .update(`partner-payments-reference-app:${name}`)
    .digest()
    .readBigInt64BE(0)
    .toString();
}
