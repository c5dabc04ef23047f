import { createHash } from 'node:crypto';

/**
 * WALLET recipient addresses, checked before I/O. The partner decodes TRON addresses with
 * base58check (evidence §4 [T3r DRIFT-28]): a `T…` string of the right length is not enough.
 * Solana (a 32-byte base58 key) and Polygon (0x + 20 bytes hex) follow the networks' own formats.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Map([...ALPHABET].map((c, i) => [c, BigInt(i)]));

/** Base58 (Bitcoin alphabet) to bytes; null when a character is outside the alphabet. */
export function base58Decode(text: string): Buffer | null {
  if (text.length === 0) return null;
  let n = 0n;
  for (const c of text) {
    const digit = INDEX.get(c);
    if (digit === undefined) return null;
    n = n * 58n + digit;
  }
  const bytes: number[] = [];
  for (; n > 0n; n /= 256n) bytes.unshift(Number(n % 256n));
  for (let i = 0; i < text.length && text[i] === '1'; i++) bytes.unshift(0);
  return Buffer.from(bytes);
}

const sha256 = (b: Buffer): Buffer => createHash('sha256').update(b).digest();

/** 21 bytes starting 0x41 plus a 4-byte checksum (the first bytes of sha256(sha256(payload))). */
export function isTronAddress(address: string): boolean {
  const bytes = base58Decode(address);
  if (!bytes || bytes.length !== 25 || bytes[0] !== 0x41) return false;
  return sha256(sha256(bytes.subarray(0, 21)))
    .subarray(0, 4)
    .equals(bytes.subarray(21));
}

/** Why `address` is not an address on `network`, or undefined when it is (unknown networks pass). */
export function walletAddressProblem(network: string, address: string): string | undefined {
  if (network === 'tron' && !isTronAddress(address))
    // The partner's words (evidence §11 N28 [T3raw recipients/03]).
    return 'is not a TRON address: it must start with T and be 34 characters long (base58check encoded)';
  if (network === 'solana' && base58Decode(address)?.length !== 32)
    return 'is not a Solana address (base58 of 32 bytes)';
  if (network === 'polygon' && !/^0x[0-9a-fA-F]{40}$/.test(address))
    return 'is not a Polygon address (0x and 40 hex digits)';
  return undefined;
}
