import type { Response } from 'express';
import { randomHex } from '../../server/ids.util';
import { sendError, sendZodValidation } from '../../server/http-errors.util';
import type { SandboxContext } from '../../server/sandbox-context.util';
import type { LivenessLinkRecord, UserRecord } from '../../server/state.types';

/**
 * POST /v1/users/{id}/liveness-link (spec 4.7; evidence §3 [T1 KiraApiClient]): one link per
 * beneficial owner (an individual: one, reference null, spec 6.4.2), valid 7 days; a repeat call
 * answers the same link unless `redirect` changes; 422 while verification has not been triggered.
 */
const SEVEN_DAYS_MS = 7 * 24 * 3600_000;

export function answerLivenessLink(
  ctx: SandboxContext,
  res: Response,
  user: UserRecord,
  body: unknown,
): void {
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const redirect = b.redirect;
  if (redirect !== undefined && (typeof redirect !== 'string' || !/^https?:\/\/\S+$/i.test(redirect))) {
    return sendZodValidation(res, [
      typeof redirect === 'string'
        ? { path: 'redirect', message: 'Invalid url', code: 'invalid_string' }
        : {
            path: 'redirect',
            message: `Expected string, received ${redirect === null ? 'null' : typeof redirect}`,
            code: 'invalid_type',
          },
    ]);
  }
  if (!user.verificationTriggered && user.status === 'CREATED') {
    return sendError(res, 422, 'unprocessable', 'Verification has not been triggered for this user yet');
  }
  const wanted = typeof redirect === 'string' ? redirect : null;
  const now = Date.now();
  const owners =
    user.type === 'business'
      ? user.associated_persons.filter((p) => p.is_beneficial_owner).map((p) => p.person_id)
      : [null];
  const links = owners.map((personId): LivenessLinkRecord => {
    const mine = user.livenessLinks.filter((l) => l.person_id === personId);
    const same = mine.find((l) => l.redirect === wanted && Date.parse(l.expires_at) > now);
    if (same) return same;
    // A new link for the same person keeps the person's provider reference (spec 6.4.2 echoes it).
    const reference =
      mine[0]?.person_reference_id !== undefined
        ? mine[0].person_reference_id
        : personId === null
          ? null
          : `ref_${randomHex(10)}`;
    if (mine.length === 0)
      user.livenessReferences.push({ person_id: personId, person_reference_id: reference });
    const link: LivenessLinkRecord = {
      person_id: personId,
      person_reference_id: reference,
      redirect: wanted,
      liveness_url: `https://liveness.sandbox.invalid/session/${randomHex(12)}`,
      expires_at: new Date(now + SEVEN_DAYS_MS).toISOString(),
    };
    user.livenessLinks.push(link);
    ctx.telemetry.created('liveness_links');
    return link;
  });
  res.status(201).json({
    user_id: user.user_id,
    links: links.map(({ redirect: _r, ...l }) => ({ ...l })),
  });
}
