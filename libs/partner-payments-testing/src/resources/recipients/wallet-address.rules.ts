import { createHash } from 'node:crypto';

/**
 * Address checks for WALLET recipients (evidence §4 [T2s Enums.cs][T3r DRIFT-28]): the partner
 * decodes TRON addresses with base58check, so a `T…` string of the right length is not enough.
 * Solana and Polygon checks follow the networks' own address formats (a 32-byte base58 key, a
 * 20-byte hex address); the partner's checks there were not probed, so these may be stricter.
 */
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_INDEX = new Map([...BASE58_ALPHABET].map((c, i) => [c, BigInt(i)]));

/** Base58 (Bitcoin alphabet) to bytes; null when a character is outside the alphabet. */
export function base58Decode(text: string): Buffer | null {
  if (text.length === 0) return null;
  let n = 0n;
  for (const c of text) {
    const digit = BASE58_INDEX.get(c);
    if (digit === undefined) return null;
    n = n * 58n + digit;
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n % 256n));
    n /= 256n;
  }
  // Each leading '1' stands for one leading zero byte.
  for (let i = 0; i < text.length && text[i] === '1'; i++) bytes.unshift(0);
  return Buffer.from(bytes);
}

const sha256 = (b: Buffer): Buffer => createHash('sha256').update(b).digest();

/** A TRON address: base58check of 21 bytes starting 0x41, checksum = first 4 bytes of sha256². */
export function isTronAddress(address: string): boolean {
  const bytes = base58Decode(address);
  if (!bytes || bytes.length !== 25 || bytes[0] !== 0x41) return false;
  const payload = bytes.subarray(0, 21);
  return sha256(sha256(payload)).subarray(0, 4).equals(bytes.subarray(21));
}

export const isSolanaAddress = (address: string): boolean => base58Decode(address)?.length === 32;

export const isEvmAddress = (address: string): boolean => /^0x[0-9a-fA-F]{40}$/.test(address);

export const WALLET_NETWORKS = ['solana', 'polygon', 'tron'] as const;
export const WALLET_TOKENS = ['USDC', 'USDT'] as const;

/** Why `address` is not an address on `network`, or undefined when it is. */
export function walletAddressProblem(network: string, address: string): string | undefined {
  // The partner's own words (evidence §11 N28 [T3raw recipients/03]), code `custom`.
  if (network === 'tron' && !isTronAddress(address))
    return 'Tron wallet address must start with T and be 34 characters long (base58check encoded)';
  if (network === 'solana' && !isSolanaAddress(address)) return 'Invalid Solana address';
  if (network === 'polygon' && !isEvmAddress(address)) return 'Invalid Polygon address';
  return undefined;
}
