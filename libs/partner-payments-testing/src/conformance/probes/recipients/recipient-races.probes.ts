/**
 * Recipient creates racing under one Idempotency-Key, as the partner's capture sent them: ten at
 * once (evidence §11 N25 [T3raw abuse/idempotency-replay-race/_summary.json]).
 */
import { randomUUID } from 'node:crypto';
import type { ConformanceProbe, Observation, ProbeContext, ProbeRequest } from '../../probe.types';
import { fixtureRecipient } from '../../probe-bodies.util';
import { t } from '../../shape.util';
import { evidence } from '../probe-shapes.util';

type Obj = Record<string, unknown>;
const bodyOf = (o: Observation): Obj => (o.body ?? {}) as Obj;

const N25 = evidence('§11 N25 [T3raw abuse/idempotency-replay-race/_summary.json]');
const CLEANUP = 'none possible (no DELETE); tagged metadata.conformance_run';

/** The nine requests a race probe sends beside its own, per run and probe. */
const racing = new Map<string, Promise<Observation[]>>();

/**
 * Nine creates sent at once beside the probe's own request, the tenth. `same`: one key, one body;
 * `changed`: one key, each of the nine with another first_name; `fresh-keys`: one body, a key each.
 */
function race(probeId: string, mode: 'same' | 'changed' | 'fresh-keys') {
  return async (ctx: ProbeContext): Promise<ProbeRequest> => {
    const key = randomUUID();
    const base = fixtureRecipient((await ctx.user()).id, ctx.runId);
    const others = Array.from({ length: 9 }, (_, i) =>
      ctx.send({
        method: 'POST',
        path: '/v1/recipients',
        idempotencyKey: mode === 'fresh-keys' ? randomUUID() : key,
        body: mode === 'changed' ? { ...base, first_name: `Racer${i}` } : base,
      }),
    );
    racing.set(`${ctx.runId}:${probeId}`, Promise.all(others));
    return { method: 'POST', path: '/v1/recipients', idempotencyKey: key, body: base };
  };
}

async function raced(probeId: string, o: Observation, ctx: ProbeContext): Promise<Observation[]> {
  const others = (await racing.get(`${ctx.runId}:${probeId}`)) ?? [];
  racing.delete(`${ctx.runId}:${probeId}`);
  return [o, ...others];
}

const SAME_BODY = 'recipients.idempotency-race.same-body';
const CHANGED_BODY = 'recipients.idempotency-race.changed-body';
const FRESH_KEYS = 'recipients.idempotency-race.fresh-keys';

export const RECIPIENT_RACE_PROBES: ConformanceProbe[] = [
  {
    id: SAME_BODY,
    area: 'recipients',
    behaviour: 'Ten parallel creates with one key and one body: ten 201s naming one recipient',
    sources: [N25],
    writes: true,
    needs: ['user'],
    creates: 'recipient',
    cleanup: CLEANUP,
    request: race(SAME_BODY, 'same'),
    expect: { status: 201, shape: t.object({ recipient_id: t.string }) },
    verify: async (o, ctx) => {
      const all = await raced(SAME_BODY, o, ctx);
      const statuses = all.map((a) => a.status);
      const ids = new Set(all.map((a) => bodyOf(a).recipient_id));
      const out: string[] = [];
      if (statuses.some((s) => s !== 201)) out.push(`statuses: expected ten 201, got ${statuses.join(', ')}`);
      if (ids.size !== 1) out.push(`body.recipient_id: expected one recipient, got ${ids.size}`);
      return out;
    },
  },
  {
    id: CHANGED_BODY,
    area: 'recipients',
    behaviour:
      'Ten parallel creates with one key and changed bodies: one 201, nine 409 { error: { code: IDEMPOTENCY_CONFLICT } }',
    sources: [N25],
    writes: true,
    needs: ['user'],
    cleanup: CLEANUP,
    request: race(CHANGED_BODY, 'changed'),
    expect: { status: [201, 409], shape: t.object({}) },
    verify: async (o, ctx) => {
      const all = await raced(CHANGED_BODY, o, ctx);
      const made = all.filter((a) => a.status === 201);
      const refused = all.filter(
        (a) => a.status === 409 && (bodyOf(a).error as Obj | undefined)?.code === 'IDEMPOTENCY_CONFLICT',
      );
      // The one that won may be any of the ten: name it whichever it was.
      const id = made[0] && bodyOf(made[0]).recipient_id;
      if (typeof id === 'string') ctx.created('recipient', id, CHANGED_BODY);
      return made.length === 1 && refused.length === 9
        ? []
        : [
            `statuses: expected one 201 and nine 409 IDEMPOTENCY_CONFLICT, got ${all.map((a) => a.status).join(', ')}`,
          ];
    },
  },
  {
    id: FRESH_KEYS,
    area: 'recipients',
    behaviour:
      'Ten parallel creates with one body and a key each: ten 201s naming ten recipients (no de-duplication by content)',
    sources: [N25],
    writes: true,
    needs: ['user'],
    cleanup: CLEANUP,
    request: race(FRESH_KEYS, 'fresh-keys'),
    expect: { status: 201, shape: t.object({ recipient_id: t.string }) },
    verify: async (o, ctx) => {
      const all = await raced(FRESH_KEYS, o, ctx);
      const ids = all.map((a) => bodyOf(a).recipient_id).filter((id): id is string => typeof id === 'string');
      for (const id of new Set(ids)) ctx.created('recipient', id, FRESH_KEYS);
      const out: string[] = [];
      const statuses = all.map((a) => a.status);
      if (statuses.some((s) => s !== 201)) out.push(`statuses: expected ten 201, got ${statuses.join(', ')}`);
      if (new Set(ids).size !== 10)
        out.push(`body.recipient_id: expected ten recipients, got ${new Set(ids).size}`);
      return out;
    },
  },
];
