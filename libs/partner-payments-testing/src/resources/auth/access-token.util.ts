import { createHash, generateKeyPair, sign, verify, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

/**
 * The claims of the partner's access token (evidence §11 N8 [T3raw security/jwt-attack-suite/01]):
 * an AWS Cognito access token. `sub` and `client_id` are the Cognito app client's id, not the
 * client_id sent to POST /auth (26 characters there, a UUID here).
 */
export interface AccessTokenClaims {
  auth_time: number;
  client_id: string;
  exp: number;
  iat: number;
  iss: string;
  jti: string;
  scope: string;
  sub: string;
  token_use: 'access';
  version: 2;
}

/** Why a bearer token is refused: `unreadable` → the gateway's 401, `signature` → its 403 (N8). */
export type AccessTokenVerdict = { claims: AccessTokenClaims } | { refused: 'unreadable' | 'signature' };

const toPart = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function readPart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * RS256 JWTs signed with a key pair each sandbox makes at start (about 30 ms; evidence §11 N8: RS256 with a `kid`, 2048-bit:
 * a 342-character signature). The gateway's verdicts as captured: a token whose header is not
 * this key's RS256 (alg none, HS256, a removed or foreign kid) or that is not a JWT at all → 401;
 * one whose claims or signature were changed → 403.
 */
export class AccessTokenSigner {
  private constructor(
    private readonly privateKey: KeyObject,
    private readonly publicKey: KeyObject,
    /** Cognito's form: the base64 SHA-256 of the public key. */
    readonly kid: string,
  ) {}

  static async create(): Promise<AccessTokenSigner> {
    const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
    const spki = publicKey.export({ type: 'spki', format: 'der' });
    return new AccessTokenSigner(privateKey, publicKey, createHash('sha256').update(spki).digest('base64'));
  }

  sign(claims: AccessTokenClaims): string {
    const signed = `${toPart({ kid: this.kid, alg: 'RS256' })}.${toPart(claims)}`;
    return `${signed}.${sign('sha256', Buffer.from(signed), this.privateKey).toString('base64url')}`;
  }

  verify(token: string): AccessTokenVerdict {
    const parts = token.split('.');
    if (parts.length !== 3 || !parts.every((p) => BASE64URL.test(p))) return { refused: 'unreadable' };
    const header = readPart(parts[0]);
    if (header?.alg !== 'RS256' || header.kid !== this.kid) return { refused: 'unreadable' };
    const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
    let valid = false;
    try {
      valid = verify('sha256', signed, this.publicKey, Buffer.from(parts[2], 'base64url'));
    } catch {
      // A signature OpenSSL cannot even read is a failed signature all the same.
    }
    if (!valid) return { refused: 'signature' };
    const claims = readPart(parts[1]);
    return claims && typeof claims.jti === 'string'
      ? { claims: claims as unknown as AccessTokenClaims }
      : { refused: 'unreadable' };
  }
}
