import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { matchesAnySecret, secretDigest } from '../common/secret-match.util';

export const SESSION_COOKIE = 'console_session';
/** Before sign-in: the value the sign-in form's CSRF token is bound to (login CSRF). */
export const PRE_SESSION_COOKIE = 'console_pre';
/** A session ends after this long without a request. */
const IDLE_MS = 8 * 60 * 60 * 1000;
/** Sessions held at most; past it the oldest is dropped (a flood of sign-ins cannot grow memory). */
const MAX_SESSIONS = 1000;

/**
 * The console's sessions: a random id in an HttpOnly, SameSite=Strict cookie (Secure over https),
 * the session itself held here in memory, keyed by the id's sha256 so the cookie's value is not
 * kept. The operator token is checked once, at sign-in, and is never put in a cookie. In memory:
 * a restart signs everyone out, and several instances need sticky routing or a shared store.
 *
 * CSRF: a synchronizer token per session (per pre-session cookie for the sign-in form), the HMAC
 * of the session id under a key drawn at start-up, compared in constant time.
 */
@Injectable()
export class ConsoleSessions {
  private readonly sessions = new Map<string, { lastSeen: number }>();
  private readonly key = randomBytes(32);
  private readonly operatorDigests: Buffer[];

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const token = config.access.operatorToken;
    this.operatorDigests = token ? [secretDigest(token)] : [];
  }

  /** false when OPERATOR_TOKEN is unset: the console then refuses every sign-in. */
  get open(): boolean {
    return this.operatorDigests.length > 0;
  }

  checkOperatorToken(presented: unknown): boolean {
    return typeof presented === 'string' && this.open && matchesAnySecret(presented, this.operatorDigests);
  }

  /** The live session's id, or null (none, unknown, or idle past IDLE_MS). */
  current(req: Request): string | null {
    const id = readCookie(req, SESSION_COOKIE);
    if (!id) return null;
    const key = digest(id);
    const session = this.sessions.get(key);
    if (!session) return null;
    if (Date.now() - session.lastSeen > IDLE_MS) {
      this.sessions.delete(key);
      return null;
    }
    session.lastSeen = Date.now();
    return id;
  }

  start(req: Request, res: Response): void {
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(digest(id), { lastSeen: Date.now() });
    res.cookie(SESSION_COOKIE, id, cookieOptions(req, IDLE_MS));
    res.clearCookie(PRE_SESSION_COOKIE, cookieOptions(req));
  }

  end(req: Request, res: Response): void {
    const id = readCookie(req, SESSION_COOKIE);
    if (id) this.sessions.delete(digest(id));
    res.clearCookie(SESSION_COOKIE, cookieOptions(req));
  }

  /** The pre-session value for the sign-in form, set as a cookie when the browser has none. */
  preSession(req: Request, res: Response): string {
    const existing = readCookie(req, PRE_SESSION_COOKIE);
    if (existing) return existing;
    const value = randomBytes(32).toString('base64url');
    res.cookie(PRE_SESSION_COOKIE, value, cookieOptions(req, 60 * 60 * 1000));
    return value;
  }

  csrfToken(binding: string): string {
    return createHmac('sha256', this.key).update(binding).digest('base64url');
  }

  /** Whether `presented` is the CSRF token of `binding` (a session id or a pre-session value). */
  csrfMatches(binding: string | null, presented: unknown): boolean {
    if (!binding || typeof presented !== 'string') return false;
    const expected = Buffer.from(this.csrfToken(binding));
    const given = Buffer.from(presented);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

function digest(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

function cookieOptions(req: Request, maxAge?: number) {
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: req.secure,
    path: '/console',
    ...(maxAge === undefined ? {} : { maxAge }),
  };
}

/** One cookie's value from the Cookie header (RFC 6265 §5.4: `name=value` pairs joined by `; `). */
export function readCookie(req: Request, name: string): string | null {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim() || null;
  }
  return null;
}
