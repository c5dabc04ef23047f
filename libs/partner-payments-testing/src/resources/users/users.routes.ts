import type { Response, Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { buildUserCreated, buildUserUpdated } from '../../webhooks/event.builders';
import { isUuid, newId, nowIso, randomHex } from '../../server/ids.util';
import { requireIdempotencyKey } from '../../middleware/idempotency.middleware';
import { sendNotFound, sendRouteNotMatched, sendValidation } from '../../server/http-errors.util';
import { accountOf, requestState, type SandboxContext } from '../../server/sandbox.context';
import type { UserRecord } from '../../server/state.types';
import { toPersons, USER_FIELDS, userView, validateUserBody } from './users.rules';
import { applyVerificationOutcome, startVerification, verificationOutcomeFor } from './users.verification';

const pickFields = (b: Record<string, unknown>) =>
  Object.fromEntries(USER_FIELDS.filter((f) => b[f] !== undefined).map((f) => [f, b[f]]));

/** The caller's user, or answers (403 malformed id / 404 missing or another client's) and returns undefined. */
export function findOwnUser(ctx: SandboxContext, res: Response, id: string): UserRecord | undefined {
  if (!isUuid(id)) {
    sendRouteNotMatched(res);
    return undefined;
  }
  const user = ctx.store.users.get(id.toLowerCase());
  if (!user || user.clientUuid !== accountOf(res).clientUuid) {
    sendNotFound(res, 'User');
    return undefined;
  }
  return user;
}

/** provider-facts Users: create, list (offset paging), get, PUT (PATCH refused 403), liveness link. */
export function registerUserRoutes(router: Router, ctx: SandboxContext): void {
  const auth = [withVersion(ctx), requireAuth(ctx)];

  router.post('/v1/users', ...auth, requireIdempotencyKey(ctx), (_req, res) => {
    const body = requestState(res).body;
    const errors = validateUserBody(body, false);
    if (errors.length) return sendValidation(res, errors);
    const b = body as Record<string, unknown>;
    const account = accountOf(res);
    const now = nowIso();
    const user: UserRecord = {
      user_id: newId(),
      clientUuid: account.clientUuid,
      type: b.type as UserRecord['type'],
      status: 'CREATED',
      fields: pickFields(b),
      // spec 2.5: client-level defaults merged at create time, request keys win.
      metadata: {
        ...account.defaultUserMetadata,
        ...((b.metadata as Record<string, string> | undefined) ?? {}),
      },
      associated_persons: toPersons(b.associated_persons, newId),
      livenessReferences: [],
      created_at: now,
      updated_at: now,
    };
    ctx.store.users.set(user.user_id, user);
    ctx.telemetry.created('users');
    // spec 6.4.1: user.created echoes the persisted metadata.
    ctx.webhooks.emit(
      account.clientUuid,
      buildUserCreated({ ...userView(user), associated_persons: undefined }),
    );
    startVerification(ctx, user);
    const answer = userView(user);
    const { outcome, reasons } = verificationOutcomeFor(ctx, user);
    const apply = () => {
      if (user.status === 'VERIFYING' && ctx.store.users.get(user.user_id) === user)
        applyVerificationOutcome(ctx, user, outcome, reasons);
    };
    if (ctx.options.verificationDelayMs > 0) {
      const timer = setTimeout(() => {
        ctx.timers.delete(timer);
        apply();
      }, ctx.options.verificationDelayMs);
      ctx.timers.add(timer);
    } else apply();
    res.status(201).json(answer);
  });

  router.get('/v1/users', ...auth, (req, res) => {
    const q = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    const limit = q.has('limit') ? Number(q.get('limit')) : 20;
    const offset = q.has('offset') ? Number(q.get('offset')) : 0;
    // provider-facts: limit at most 100; above it the server answers a bare 500.
    if (Number.isInteger(limit) && limit > 100)
      return void res.status(500).type('text/plain').send('Internal Server Error');
    const errors = [];
    if (!Number.isInteger(limit) || limit < 1)
      errors.push({ field: 'limit', message: 'must be an integer from 1 to 100' });
    if (!Number.isInteger(offset) || offset < 0)
      errors.push({ field: 'offset', message: 'must be a non-negative integer' });
    if (errors.length) return sendValidation(res, errors);
    const own = [...ctx.store.users.values()].filter((u) => u.clientUuid === accountOf(res).clientUuid);
    const data = own.slice(offset, offset + limit).map(userView);
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
    const body = requestState(res).body;
    const errors = validateUserBody(body, true);
    if (errors.length) return sendValidation(res, errors);
    const b = body as Record<string, unknown>;
    Object.assign(user.fields, pickFields(b));
    if (b.metadata !== undefined) user.metadata = { ...(b.metadata as Record<string, string>) };
    if (b.associated_persons !== undefined) user.associated_persons = toPersons(b.associated_persons, newId);
    user.updated_at = nowIso();
    // spec 6.4.1: user.updated carries no metadata.
    ctx.webhooks.emit(
      user.clientUuid,
      buildUserUpdated({ user_id: user.user_id, status: user.status, updated_at: user.updated_at }),
    );
    res.json(userView(user));
  });

  /** provider-facts: one entry per beneficial owner with its provider reference id (individual: one entry, reference null). */
  router.post('/v1/users/:id/liveness-link', ...auth, (req, res) => {
    const user = findOwnUser(ctx, res, String(req.params.id));
    if (!user) return;
    const expires = new Date(Date.now() + 3600_000).toISOString();
    const owners =
      user.type === 'business' ? user.associated_persons.filter((p) => p.is_beneficial_owner) : [];
    const refs =
      user.type === 'business'
        ? owners.map((p) => ({ person_id: p.person_id, person_reference_id: `ref_${randomHex(10)}` }))
        : [{ person_id: null, person_reference_id: null }];
    user.livenessReferences.push(...refs);
    ctx.telemetry.created('liveness_links', refs.length);
    res.status(201).json({
      user_id: user.user_id,
      links: refs.map((r) => ({
        ...r,
        liveness_url: `https://liveness.sandbox.invalid/session/${randomHex(12)}`,
        expires_at: expires,
      })),
    });
  });
}
