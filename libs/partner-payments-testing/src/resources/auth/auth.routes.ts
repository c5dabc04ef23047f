import { createHash } from 'node:crypto';
import type { Router } from 'express';
import { rejectMissingApiKey } from '../../middleware/auth.middleware';
import { sendPlainJson } from '../../server/http-errors.util';
import { requestState, type SandboxContext } from '../../server/sandbox-context.util';

/** The tokens' issuer: the partner's is its Cognito user pool; a reserved name marks this one. */
const TOKEN_ISSUER = 'https://cognito-idp.sandbox.invalid/partner-sandbox';

/**
 * spec 4.1 / 5: POST /auth with x-api-key only; body client_id + password; answer { message, data }.
 * No x-api-key at all: the gateway's 403 `{message:"Forbidden"}`, as on every other path (evidence
 * §1/§2 [T3r DRIFT-6, 49]); a present but wrong key or a rejected pair: 401 (spec 5.7). Both count
 * as a failed auth call in the counters. The partner's auth function answers, not its API: plain
 * JSON without the API's headers [T3raw auth/02-success] (sendPlainJson).
 */
export function registerAuthRoutes(router: Router, ctx: SandboxContext): void {
  router.post('/auth', (req, res) => {
    ctx.telemetry.counters.authCalls++;
    if (rejectMissingApiKey(req, res)) {
      ctx.telemetry.counters.authFailures++;
      return;
    }
    const account = ctx.store.accountByApiKey(req.get('x-api-key'));
    const body = requestState(res).body as { client_id?: unknown; password?: unknown } | undefined;
    const ok =
      account !== undefined &&
      typeof body === 'object' &&
      body !== null &&
      body.client_id === account.clientId &&
      body.password === account.password;
    if (!ok) {
      ctx.telemetry.counters.authFailures++;
      return sendPlainJson(res, 401, {
        code: 'unauthorized',
        message: 'Invalid API key or client credentials',
        statusCode: 401,
      });
    }
    const ttl = ctx.options.tokenTtlSeconds;
    const { jti, expiresAt } = ctx.store.issueToken(account.clientUuid, ttl);
    const now = Math.floor(Date.now() / 1000);
    // evidence §11 N8: a Cognito access token; its client id is Cognito's app client (26
    // characters), derived here from the account so no credential is written into the token.
    const appClientId = createHash('sha256').update(account.clientUuid).digest('hex').slice(0, 26);
    const token = ctx.accessTokens.sign({
      sub: appClientId,
      token_use: 'access',
      scope: 'partner-api/sandbox',
      auth_time: now,
      iss: TOKEN_ISSUER,
      exp: Math.floor(expiresAt / 1000),
      iat: now,
      version: 2,
      jti,
      client_id: appClientId,
    });
    sendPlainJson(res, 200, {
      message: 'Authentication successful',
      data: { access_token: token, expires_in: ttl, token_type: 'Bearer' },
    });
  });
}
