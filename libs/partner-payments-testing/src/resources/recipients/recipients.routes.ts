import type { Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { isUuid, newId, nowIso } from '../../server/ids.util';
import { requireIdempotencyKey } from '../../middleware/idempotency.middleware';
import { sendNotFound, sendRouteNotMatched, sendValidation } from '../../server/http-errors.util';
import { matchesMetadata, parseMetadataFilters } from '../metadata.rules';
import { recipientIdentity, recipientView, validateRecipientBody } from './recipients.rules';
import { accountOf, requestState, type SandboxContext } from '../../server/sandbox.context';
import type { RecipientRecord } from '../../server/state.types';

/** spec 2.3, 4.4 + provider-facts Recipients: create 201/202, get bare, list for one user with metadata filters. */
export function registerRecipientRoutes(router: Router, ctx: SandboxContext): void {
  const auth = [withVersion(ctx), requireAuth(ctx)];

  router.post('/v1/recipients', ...auth, requireIdempotencyKey(ctx), (_req, res) => {
    const body = requestState(res).body;
    const errors = validateRecipientBody(body);
    if (errors.length) return sendValidation(res, errors);
    const b = body as Record<string, unknown>;
    const account = accountOf(res);
    const userId = String(b.user_id).toLowerCase();
    const user = ctx.store.users.get(userId);
    if (!isUuid(userId) || !user || user.clientUuid !== account.clientUuid) return sendNotFound(res, 'User');
    const { account_type, ...details } = b.account as Record<string, unknown>;
    const identity = recipientIdentity(userId, String(account_type), details);
    const existing = [...ctx.store.recipients.values()].find(
      (r) =>
        r.clientUuid === account.clientUuid &&
        recipientIdentity(r.user_id, r.account_type, r.account_details) === identity,
    );
    if (existing) return void res.status(202).json(recipientView(existing));
    const now = nowIso();
    const recipient: RecipientRecord = {
      recipient_id: newId(),
      clientUuid: account.clientUuid,
      user_id: userId,
      type: b.type as RecipientRecord['type'],
      company_name: b.company_name as string | undefined,
      first_name: b.first_name as string | undefined,
      last_name: b.last_name as string | undefined,
      email: b.email as string | undefined,
      address: b.address as RecipientRecord['address'],
      account_type: String(account_type),
      account_details: details,
      metadata: { ...((b.metadata as Record<string, string> | undefined) ?? {}) },
      created_ts: now,
      updated_ts: now,
    };
    ctx.store.recipients.set(recipient.recipient_id, recipient);
    ctx.telemetry.created('recipients');
    res.status(201).json(recipientView(recipient));
  });

  router.get('/v1/recipients', ...auth, (req, res) => {
    const search = req.originalUrl.split('?')[1] ?? '';
    const userId = new URLSearchParams(search).get('user_id');
    if (!userId) return sendValidation(res, [{ field: 'user_id', message: 'is required' }]);
    if (!isUuid(userId)) return sendValidation(res, [{ field: 'user_id', message: 'must be a UUID' }]);
    const { filters, errors } = parseMetadataFilters(search);
    if (errors.length) return sendValidation(res, errors);
    const clientUuid = accountOf(res).clientUuid;
    const recipients = [...ctx.store.recipients.values()]
      .filter(
        (r) =>
          r.clientUuid === clientUuid &&
          r.user_id === userId.toLowerCase() &&
          matchesMetadata(r.metadata, filters),
      )
      .map(recipientView);
    res.json({ recipients, total: recipients.length });
  });

  router.get('/v1/recipients/:id', ...auth, (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id)) return sendRouteNotMatched(res);
    const recipient = ctx.store.recipients.get(id.toLowerCase());
    if (!recipient || recipient.clientUuid !== accountOf(res).clientUuid)
      return sendNotFound(res, 'Recipient');
    res.json(recipientView(recipient));
  });
}
