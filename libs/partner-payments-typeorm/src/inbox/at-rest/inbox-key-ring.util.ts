import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';

/**
 * Inbox bodies sealed at rest with AES-256-GCM: a virtual_account.created carries an
 * account_number and an ACH deposit a source.sender_account_number (spec 6.4.3), which must not sit
 * whole in the database. The exact bytes stay available to redelivery and audit; a copy of the
 * database alone reveals nothing.
 *
 * Keys come from `inbox.sealingKeys`, `id:base64` pairs separated by commas: the first seals,
 * every one opens (rotation). A sealed value names its key, so any listed key opens what it sealed.
 */

/** One key: `id` is named in every value it seals; `key` is 32 bytes. */
export interface InboxKey {
  id: string;
  key: Buffer;
}

const FORMAT = 'v1';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const IV_BYTES = 12; // the GCM nonce size NIST SP 800-38D recommends
const TAG_BYTES = 16;
/**
 * IVs are cut from a pool of random bytes refilled every 1,024 seals: one call into the CSPRNG
 * instead of one per seal (a CSPRNG call per delivery costs about as much as the seal). Each IV
 * is still 96 fresh random bits, never reused (NIST SP 800-38D 8.2.2, random IV construction).
 */
const IV_POOL_BYTES = IV_BYTES * 1024;

/** Parses `id:base64` keys separated by commas; the error message never contains key material. */
export function parseInboxKeys(value: string): InboxKey[] {
  const keys: InboxKey[] = [];
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('must list at least one id:base64 key');
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(':');
    const id = colon > 0 ? entry.slice(0, colon) : '';
    if (!KEY_ID.test(id)) {
      throw new Error(`entry ${index + 1}: the key id must be 1-32 of A-Z a-z 0-9 _ - before a ':'`);
    }
    const encoded = entry.slice(colon + 1);
    const key = Buffer.from(encoded, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || key.length !== 32) {
      throw new Error(`key '${id}' must be 32 bytes in base64 (e.g. openssl rand -base64 32)`);
    }
    if (keys.some((k) => k.id === id)) throw new Error(`key id '${id}' is listed twice`);
    keys.push({ id, key });
  });
  return keys;
}

/** A new `id:base64` entry (a development key file, and the example command of docs/reference-app/configuration.md). */
export function generateInboxKeyEntry(id: string): string {
  return `${id}:${randomBytes(32).toString('base64')}`;
}

export class PartnerInboxKeyUnavailableError extends Error {
  constructor(readonly keyId: string) {
    super(
      `inbox entry sealed with key '${keyId}', which the sealing keys do not list: add it back (after the first, it only opens)`,
    );
    this.name = 'PartnerInboxKeyUnavailableError';
  }
}

/**
 * Seals and opens inbox bodies. A sealed value is `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url
 * parts). The associated data binds it to its format, key id and row (the event key), so a sealed
 * body copied onto another row does not open there.
 */
export class PartnerInboxKeyRing {
  /**
   * KeyObjects made once, not the Buffers: on Node 24 createCipheriv turns a Buffer key into a
   * key object on every call, which costs more than the seal itself (a seal per delivery).
   */
  private readonly keys: ReadonlyMap<string, KeyObject>;
  /** The key that seals. */
  readonly currentId: string;
  private ivPool = Buffer.alloc(0);
  private ivOffset = 0;

  constructor(keys: readonly InboxKey[]) {
    if (keys.length === 0) throw new Error('PartnerInboxKeyRing needs at least one key');
    this.keys = new Map(keys.map((k) => [k.id, createSecretKey(k.key)]));
    this.currentId = keys[0].id;
  }

  get ids(): string[] {
    return [...this.keys.keys()];
  }

  has(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  seal(plaintext: string, rowKey: string): string {
    const iv = this.nextIv();
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv);
    cipher.setAAD(aad(this.currentId, rowKey));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT, this.currentId, b64(iv), b64(cipher.getAuthTag()), b64(body)].join('.');
  }

  /** The next unused 12 bytes of the pool (copied out; an IV is public, stored beside its ciphertext). */
  private nextIv(): Buffer {
    if (this.ivOffset + IV_BYTES > this.ivPool.length) {
      this.ivPool = randomBytes(IV_POOL_BYTES);
      this.ivOffset = 0;
    }
    const iv = Buffer.from(this.ivPool.subarray(this.ivOffset, this.ivOffset + IV_BYTES));
    this.ivOffset += IV_BYTES;
    return iv;
  }

  /** The exact text sealed. Throws PartnerInboxKeyUnavailableError, or an authentication error when tampered with. */
  open(sealed: string, rowKey: string): string {
    const [format, keyId, iv, tag, body, extra] = sealed.split('.');
    if (format !== FORMAT || body === undefined || extra !== undefined) {
      throw new Error(`inbox body is not a ${FORMAT} sealed value`);
    }
    const key = this.keys.get(keyId);
    if (!key) throw new PartnerInboxKeyUnavailableError(keyId);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(aad(keyId, rowKey));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  /** Never print key material, whatever logs or serialises the configuration. */
  toJSON(): string {
    return `PartnerInboxKeyRing(${this.ids.join(', ')})`;
  }

  [inspect.custom](): string {
    return this.toJSON();
  }
}

function aad(keyId: string, rowKey: string): Buffer {
  return Buffer.from(`${FORMAT}.${keyId}.${rowKey}`, 'utf8');
}

function b64(buffer: Buffer): string {
  return buffer.toString('base64url');
}
