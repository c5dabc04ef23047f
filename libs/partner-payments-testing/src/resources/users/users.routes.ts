import type { Response, Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { buildUserCreated, buildUserUpdated } from '../../webhooks/event-builders.util';
import { isUuid, newId, nowIso, randomHex } from '../../server/ids.util';
import { requireIdempotencyKey } from '../../middleware/idempotency.middleware';
import { sendFlatError, sendValidation, sendZodValidation } from '../../server/http-errors.util';
import { accountOf, requestState, type SandboxContext } from '../../server/sandbox-context.util';
import type { UserRecord, UserVerificationRecord } from '../../server/state.types';
import { applyUserUpdate, newUserRecord } from './users.store';
import { metadataIssues, validateUserBody, validateVerificationBody } from './users.rules';
import { userView } from './users-view.util';
import { verificationCanTrigger } from './users-eligibility.policy';
import { afterCreate, startIfTriggered } from './users-verification.service';
import { answerLivenessLink } from './users-liveness.service';

/**
 * The caller's user, or answers and returns undefined: a malformed id → 400 Z naming `user_id`
 * (evidence §11 N11 [T3raw bola-id-enumeration]); an unknown one, or another client's, → 404 flat
 * `{ code, message }` whose message repeats the id (N10, N14: both answer alike).
 */
export function findOwnUser(ctx: SandboxContext, res: Response, id: string): UserRecord | undefined {
  if (!isUuid(id)) {
    sendZodValidation(res, [{ path: 'user_id', message: 'Invalid user ID format', code: 'invalid_string' }]);
    return undefined;
  }
  const user = ctx.store.users.get(id.toLowerCase());
  if (!user || user.clientUuid !== accountOf(res).clientUuid) {
    sendFlatError(res, 404, 'not_found', `User with ID ${id} not found`);
    return undefined;
  }
  return user;
}

/** evidence §3: create, list (offset paging), get, PUT (strict; PATCH → 403), verifications, liveness link. */
export function registerUserRoutes(router: Router, ctx: SandboxContext): void {
  const auth = [withVersion(ctx), requireAuth(ctx)];

  // evidence §11 N20 [T4 log §3]: a key whose create failed, reused with another body → 400.
  router.post('/v1/users', ...auth, requireIdempotencyKey(ctx, { afterFailure: 'refuse' }), (_req, res) => {
    const body = requestState(res).body;
    const issues = validateUserBody(body, 'create');
    if (issues.length) return sendZodValidation(res, issues);
    const b = body as Record<string, unknown>;
    const account = accountOf(res);
    // spec 2.5: client-level defaults merged at create time, request keys win; the merged map is
    // what gets stored, so it is what must hold at most 50 entries (10 defaults + 50 keys stored 60).
    const metadata = {
      ...account.defaultUserMetadata,
      ...((b.metadata as Record<string, string> | undefined) ?? {}),
    };
    const merged = metadataIssues(metadata).map((i) =>
      i.path === 'metadata'
        ? {
            ...i,
            message: `${i.message} once the account's ${Object.keys(account.defaultUserMetadata).length} default keys are merged`,
          }
        : i,
    );
    if (merged.length) return sendZodValidation(res, merged);
    const user = newUserRecord(account.clientUuid, b, metadata);
    ctx.store.users.set(user.user_id, user);
    ctx.telemetry.created('users');
    // spec 6.4.1: user.created echoes the persisted metadata; evidence §11 N22 [T3raw webhooks/32]:
    // it carries the email and the phone ("" when unset) beside the UPPERCASE status.
    ctx.webhooks.emit(
      account.clientUuid,
      buildUserCreated({
        user_id: user.user_id,
        type: user.type,
        email: user.fields.email as string,
        phone: (user.fields.phone as string | undefined) ?? null,
        status: user.status,
        metadata: user.metadata,
      }),
    );
    // The answer is the user as created (CREATED), before the automatic steps below run;
    // DRIFT-3/19: verification_triggered says whether one product had nothing missing. A
    // verification_link user also gets its link in the flat answer (evidence §11 N18 [T4 log §4]).
    const answer = {
      ...userView(user, 'create'),
      verification_triggered: verificationCanTrigger(user),
      ...(user.fields.verification_mode === 'verification_link'
        ? { verification_link: `https://verify.sandbox.invalid/?session=${randomHex(12)}` }
        : {}),
    };
    afterCreate(ctx, user);
    res.status(201).json(answer);
  });

  router.get('/v1/users', ...auth, (req, res) => {
    const q = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    const limit = q.has('limit') ? Number(q.get('limit')) : 20;
    const offset = q.has('offset') ? Number(q.get('offset')) : 0;
    // evidence §2 [T3r DRIFT-10]: limit at most 100; above it a 500 in shape I
    // ({ status: 'error', message }, no code), which wins over provider-facts' "bare 500".
    if (Number.isInteger(limit) && limit > 100)
      return void res.status(500).json({ status: 'error', message: 'Internal server error' });
    const errors = [];
    if (!Number.isInteger(limit) || limit < 1)
      errors.push({ field: 'limit', message: 'must be an integer from 1 to 100' });
    if (!Number.isInteger(offset) || offset < 0)
      errors.push({ field: 'offset', message: 'must be a non-negative integer' });
    if (errors.length) return sendValidation(res, errors);
    const own = [...ctx.store.users.values()].filter((u) => u.clientUuid === accountOf(res).clientUuid);
    const data = own.slice(offset, offset + limit).map((u) => userView(u));
    res.json({
      data,
      pagination: { total: own.length, limit, offset, has_more: offset + data.length < own.length },
    });
  });

  router.get('/v1/users/:id', ...auth, (req, res) => {
    const user = findOwnUser(ctx, res, String(req.params.id));
    if (user) res.json(userView(user));
  });

  router.put('/v1/users/:id', ...auth, (req, res) => {
    const user = findOwnUser(ctx, res, String(req.params.id));
    if (!user) return;
    const body = requestState(res).body ?? {};
    const issues = validateUserBody(body, 'update', user.type);
    if (issues.length) return sendZodValidation(res, issues);
    const { updatedFields, requiresReverification } = applyUserUpdate(user, body as Record<string, unknown>);
    if (updatedFields.length > 0) {
      user.updated_at = nowIso();
      // spec 6.4.1: user.updated carries no metadata.
      ctx.webhooks.emit(
        user.clientUuid,
        buildUserUpdated({ user_id: user.user_id, status: user.status, updated_at: user.updated_at }),
      );
    }
    startIfTriggered(ctx, user);
    // DRIFT-15 and evidence §11 C5 [T3raw users/15]: the user plus updated_fields,
    // requires_reverification and verification_triggered; no warnings.
    res.json({
      ...userView(user, 'update'),
      updated_fields: updatedFields,
      requires_reverification: requiresReverification,
    });
  });

  /**
   * evidence §3 [T3r DRIFT-16, 17, 25]: 201 `{ id, verification_link, status }`, the user does not
   * change. Not de-duplicated: the same key and body replay the answer, another body makes a new one.
   */
  router.post('/v1/users/:id/verifications', ...auth, (req, res) => {
    const user = findOwnUser(ctx, res, String(req.params.id));
    if (!user) return;
    const key = req.get('idempotency-key');
    if (!key)
      return sendZodValidation(res, [{ path: 'idempotency-key', message: 'Required', code: 'invalid_type' }]);
    const body = requestState(res).body;
    const issues = validateVerificationBody(body);
    if (issues.length) return sendZodValidation(res, issues);
    const b = body as { type: 'embedded-link' | 'api'; redirect_uri?: string };
    const replayKey = `${key}:${requestState(res).bodySha256 ?? ''}`;
    const seen = user.verificationReplays.get(replayKey);
    if (seen) return void res.status(201).json(verificationView(seen));
    const record: UserVerificationRecord = {
      id: newId(),
      type: b.type,
      redirect_uri: b.redirect_uri ?? null,
      verification_link:
        b.type === 'embedded-link' ? `https://verify.sandbox.invalid/session/${randomHex(12)}` : null,
      status: 'pending',
      created_at: nowIso(),
    };
    user.verifications.push(record);
    user.verificationReplays.set(replayKey, record);
    ctx.telemetry.created('verifications');
    res.status(201).json(verificationView(record));
  });

  router.post('/v1/users/:id/liveness-link', ...auth, (req, res) => {
    const user = findOwnUser(ctx, res, String(req.params.id));
    if (user) answerLivenessLink(ctx, res, user, requestState(res).body);
  });
}

const verificationView = (v: UserVerificationRecord) => ({
  id: v.id,
  verification_link: v.verification_link,
  status: v.status,
});
