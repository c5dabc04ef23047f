import type { Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { isUuid, newId, nowIso } from '../../server/ids.util';
import { requireIdempotencyKey } from '../../middleware/idempotency.middleware';
import { sendZodValidation, sendTypedError } from '../../server/http-errors.util';
import { matchesMetadata, parseMetadataFilters } from '../metadata.rules';
import { checkRecipientBody } from './recipients.rules';
import { postgresTimestamp, recipientView } from './recipients-view.util';
import { accountOf, requestState, type SandboxContext } from '../../server/sandbox-context.util';
import type { RecipientRecord } from '../../server/state.types';

/**
 * Recipients (spec 2.3, 4.4; evidence §4): create (validation in the Zod shape, other failures in
 * the typed shape, evidence §2 [T3r DRIFT-13, 36]), read one, list one user's. There is no DELETE:
 * it falls through to the unmatched-route 403 and the recipient stays (evidence §4 [T3r DRIFT-39]).
 * The user need not be VERIFIED (evidence §4 [T3r §Recipients]).
 */
export function registerRecipientRoutes(router: Router, ctx: SandboxContext): void {
  const auth = [withVersion(ctx), requireAuth(ctx)];

  router.post('/v1/recipients', ...auth, requireIdempotencyKey(ctx), (_req, res) => {
    const checked = checkRecipientBody(requestState(res).body);
    if (!checked.ok && 'issues' in checked) return sendZodValidation(res, checked.issues);
    if (!checked.ok) return sendTypedError(res, 400, 'VALIDATION_ERROR', checked.refusal);
    const { input } = checked;
    const account = accountOf(res);
    const user = ctx.store.users.get(input.user_id);
    if (!user || user.clientUuid !== account.clientUuid)
      return sendTypedError(res, 404, 'NOT_FOUND', 'User not found');
    const now = postgresTimestamp(nowIso());
    const { account_type, account_details, ...fields } = input;
    const recipient: RecipientRecord = {
      ...fields,
      recipient_id: newId(),
      clientUuid: account.clientUuid,
      account_type,
      account_details,
      created_ts: now,
      updated_ts: now,
    };
    ctx.store.recipients.set(recipient.recipient_id, recipient);
    ctx.telemetry.created('recipients');
    res.status(201).json(recipientView(recipient, true));
  });

  router.get('/v1/recipients', ...auth, (req, res) => {
    const search = req.originalUrl.split('?')[1] ?? '';
    const userId = new URLSearchParams(search).get('user_id');
    // evidence §2 [T3r DRIFT-13]: this route answers its failures in the typed shape, details {}.
    if (!userId) return sendTypedError(res, 400, 'VALIDATION_ERROR', 'user_id is required');
    if (!isUuid(userId)) return sendTypedError(res, 400, 'VALIDATION_ERROR', 'user_id must be a valid UUID');
    const { filters, errors } = parseMetadataFilters(search);
    if (errors.length) {
      const details = Object.fromEntries(errors.map((e) => [e.field, e.message]));
      return sendTypedError(res, 400, 'VALIDATION_ERROR', 'Invalid metadata filter', details);
    }
    const clientUuid = accountOf(res).clientUuid;
    const user = ctx.store.users.get(userId.toLowerCase());
    if (!user || user.clientUuid !== clientUuid)
      return sendTypedError(res, 404, 'NOT_FOUND', 'User not found');
    const recipients = [...ctx.store.recipients.values()]
      .filter(
        (r) =>
          r.clientUuid === clientUuid && r.user_id === user.user_id && matchesMetadata(r.metadata, filters),
      )
      .map((r) => recipientView(r));
    res.json({ recipients, total: recipients.length });
  });

  /**
   * evidence §4 [D get-a-recipient]: 400 malformed id (shape not shown); 404 missing or another
   * client's, typed, the message repeating the id (evidence §11 N12, N14 [T3raw bola-id-enumeration]).
   */
  router.get('/v1/recipients/:id', ...auth, (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id)) return sendTypedError(res, 400, 'VALIDATION_ERROR', 'recipient id must be a valid UUID');
    const recipient = ctx.store.recipients.get(id.toLowerCase());
    if (!recipient || recipient.clientUuid !== accountOf(res).clientUuid)
      return sendTypedError(res, 404, 'NOT_FOUND', `Recipient with ID ${id} not found`);
    res.json(recipientView(recipient));
  });
}
