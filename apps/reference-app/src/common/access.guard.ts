import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { PartnerWebhookGuard } from '@partner-payments/nestjs';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ApiAccess } from './api-responses.decorator';
import { matchesAnySecret, secretDigest } from './secret-match.util';

/**
 * Who may call a route (nothing is exposed by default):
 * - `operator`: OPERATOR_TOKEN as `Authorization: Bearer <token>`. The default of every route not
 *   marked otherwise, so a route added later (a /metrics, an admin action) is closed until decided.
 * - `caller`: one of APP_API_KEYS as `X-Api-Key: <key>`, the clients of the app's own API.
 * - `public`: no credential (GET /health/live and /health/ready, which orchestrators probe).
 * The partner's webhook route needs none of these: its signature is its authentication (spec 6.1.3).
 */
export type AccessClass = 'operator' | 'caller' | 'public';

const ACCESS_CLASS = 'reference-app:access';

/**
 * Marks a controller or handler with who may call it (unmarked: operator), and gives its OpenAPI
 * operations the same security requirement and 401 (the document is built from these marks).
 */
export const Access = (access: AccessClass): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(ACCESS_CLASS, access), documentAccess(access));

/**
 * The OpenAPI side of a mark, per handler. On a controller, only the handlers without a mark of
 * their own: AccessGuard lets a handler's mark win, where @nestjs/swagger would list the class's
 * and the handler's requirements as alternatives.
 */
function documentAccess(access: AccessClass): MethodDecorator & ClassDecorator {
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor): void => {
    if (key !== undefined && descriptor) return void ApiAccess(access)(target, key, descriptor);
    const prototype = (target as { prototype: object }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = Object.getOwnPropertyDescriptor(prototype, name);
      if (name === 'constructor' || typeof handler?.value !== 'function') continue;
      if (Reflect.getMetadata(ACCESS_CLASS, handler.value) === undefined)
        ApiAccess(access)(prototype, name, handler);
    }
  };
}

/** The header callers send their key in (the partner's own API uses x-api-key the same way). */
export const API_KEY_HEADER = 'x-api-key';

/**
 * The app's own authentication, registered as a global guard (APP_GUARD).
 *
 * THIS IS WHERE YOUR OWN AUTH GOES. The template checks static API keys for the `caller` class;
 * replace the `caller` check with your users' authentication (sessions, JWT, mTLS...) and keep the
 * operator token, or your own admin authentication, in front of the operator routes.
 *
 * Secrets are compared in constant time on their sha256 (secret-match.util.ts) and never logged:
 * a refusal names the variable and the header, never a value.
 */
/** How one class of routes is authenticated: where the credential is, which secrets, what a refusal says. */
interface CredentialCheck {
  /** The credential as sent, or null when absent. */
  read(req: Request): string | null;
  digests: Buffer[];
  challenge: string;
  closed: string;
  missing: string;
  wrong: string;
}

@Injectable()
export class AccessGuard implements CanActivate {
  private readonly checks: Record<Exclude<AccessClass, 'public'>, CredentialCheck>;

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const { operatorToken, apiKeys } = config.access;
    this.checks = {
      operator: {
        read: (req) => /^Bearer[ ]+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1] ?? null,
        digests: operatorToken ? [secretDigest(operatorToken)] : [],
        challenge: 'Bearer realm="operator"',
        closed: 'operator endpoints are closed: OPERATOR_TOKEN is not configured',
        missing: 'operator token required: send Authorization: Bearer <OPERATOR_TOKEN>',
        wrong: 'operator token not accepted (OPERATOR_TOKEN)',
      },
      // Replace this entry with your users' authentication (see the class comment).
      caller: {
        read: (req) => {
          const key = req.headers[API_KEY_HEADER];
          return typeof key === 'string' && key.trim() !== '' ? key.trim() : null;
        },
        digests: apiKeys.map(secretDigest),
        challenge: 'ApiKey header="X-Api-Key"',
        closed: 'this endpoint is closed: APP_API_KEYS is not configured',
        missing: 'API key required: send X-Api-Key: <one of APP_API_KEYS>',
        wrong: 'API key not accepted (APP_API_KEYS)',
      },
    };
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const handler = context.getHandler();
    const guards = (this.reflector.get<unknown[]>(GUARDS_METADATA, handler) ?? []) as unknown[];
    if (guards.includes(PartnerWebhookGuard)) return true; // signed by the partner instead
    const access =
      this.reflector.getAllAndOverride<AccessClass>(ACCESS_CLASS, [handler, context.getClass()]) ??
      'operator';
    if (access === 'public') return true;
    const check = this.checks[access];
    const http = context.switchToHttp();
    const res = http.getResponse<Response>();
    if (check.digests.length === 0) {
      if (this.config.access.demoOpen) return true;
      return refuse(res, check.challenge, check.closed);
    }
    const presented = check.read(http.getRequest<Request>());
    if (presented === null) return refuse(res, check.challenge, check.missing);
    if (!matchesAnySecret(presented, check.digests)) return refuse(res, check.challenge, check.wrong);
    return true;
  }
}

/** 401 with a challenge naming the expected scheme (RFC 9110 §11.6.1) and a message naming the variable. */
function refuse(res: Response, challenge: string, message: string): never {
  res.setHeader('WWW-Authenticate', challenge);
  throw new UnauthorizedException(message);
}

/**
 * The start-up line about access, or null when everything is configured: in the demo, which
 * endpoints are open because it is the demo; elsewhere, which are refused for want of a variable.
 */
export function describeAccess(config: AppConfig): string | null {
  const { operatorToken, apiKeys, demoOpen } = config.access;
  const unset = [
    ...(operatorToken ? [] : ['operator endpoints (OPERATOR_TOKEN unset)']),
    ...(apiKeys.length ? [] : ['caller endpoints (APP_API_KEYS unset)']),
  ];
  if (unset.length === 0) return null;
  return demoOpen
    ? `embedded-sandbox demo: ${unset.join(' and ')} are OPEN without credentials because this is the demo; set the variables before exposing it`
    : `${unset.join(' and ')} refuse every request (401) until configured`;
}
