/**
 * The user.created delivery as the partner's real one arrived (evidence §11 N22 [T3raw
 * webhooks/32]), caught by the kit's receiver (options.webhooks; skipped without it). Each probe
 * reads back the user the delivery names and checks one property of that delivery.
 */
import type { ConformanceProbe, Observation, ProbeContext } from '../../probe.types';
import { safeValue, t } from '../../shape.util';
import { partnerHeaderNames } from '../../webhooks/webhook-inbox.service';
import type { UserCreatedDelivery } from '../../webhooks/webhook.types';
import { contract, evidence } from '../probe-shapes.util';

const N22 = evidence('§11 N22 [T3raw webhooks/32-success-P1-stepC-webhook-receipt-snapshot.json]');

/** The two headers the partner adds to a delivery (spec 6.1.3, evidence §11 N22). */
const DELIVERY_HEADERS = ['content-type', 'x-signature-sha256'];

/** A probe that reads the delivery's user back and checks the delivery with `check`. */
export function deliveryProbe(
  id: string,
  behaviour: string,
  sources: ConformanceProbe['sources'],
  check: (d: UserCreatedDelivery, ctx: ProbeContext) => Promise<string[]> | string[],
): ConformanceProbe {
  return {
    id,
    area: 'webhooks',
    behaviour,
    sources,
    writes: true,
    needs: ['userCreatedDelivery'],
    cleanup: 'none possible (no DELETE); tagged metadata.conformance_run',
    request: async (ctx: ProbeContext) => ({
      method: 'GET',
      path: `/v1/users/${(await ctx.userCreatedDelivery()).userId}`,
    }),
    expect: { status: 200, shape: t.object({ id: t.string }) },
    verify: async (_o: Observation, ctx: ProbeContext) => check(await ctx.userCreatedDelivery(), ctx),
    sandbox:
      'same once told where to deliver (control.setWebhookUrl; the sandbox delivers at once, after the answer, where the partner took ~37 s)',
  };
}

export const WEBHOOK_DELIVERY_PROBES: ConformanceProbe[] = [
  deliveryProbe(
    'webhooks.user-created.after-answer',
    "user.created is asynchronous: it arrives after POST /v1/users has answered 201 (the partner's came about 37 s later)",
    [N22],
    ({ answeredAt, delivery }) => {
      if (!Number.isFinite(answeredAt)) return ["the create's answer time is unknown"];
      const lead = answeredAt - delivery.receivedAt;
      return lead < 0
        ? []
        : [
            `delivery: arrived ${lead.toFixed(1)} ms before the create's answer (expected after it: the event is asynchronous)`,
          ];
    },
  ),
  deliveryProbe(
    'webhooks.user-created.headers',
    'A delivery carries content-type: application/json and x-signature-sha256 and no other header of its own (no timestamp, no event name), transport headers aside',
    [N22],
    ({ delivery }) => {
      const names = partnerHeaderNames(delivery.headers);
      const out: string[] = [];
      if (JSON.stringify(names) !== JSON.stringify(DELIVERY_HEADERS))
        out.push(
          `headers: expected exactly ${DELIVERY_HEADERS.join(', ')}, got ${names.join(', ') || 'none'}`,
        );
      const type = delivery.headers['content-type'];
      if (typeof type !== 'string' || !/^application\/json\b/.test(type))
        out.push(`header content-type: expected application/json, got ${safeValue(type)}`);
      return out;
    },
  ),
  deliveryProbe(
    'webhooks.user-created.signature',
    'x-signature-sha256 is the hex HMAC-SHA256 of the raw body keyed with the webhook secret',
    [contract('§6.1.3'), N22],
    ({ delivery }) =>
      delivery.validSignature
        ? []
        : ['header x-signature-sha256: does not verify over the raw body with the webhook secret'],
  ),
  deliveryProbe(
    'webhooks.user-created.phone-empty',
    'user.created of a user created without a phone carries phone: "" (not null, not absent)',
    [N22],
    ({ delivery }) => {
      const data = (delivery.body?.data ?? {}) as Record<string, unknown>;
      return data.phone === ''
        ? []
        : [`body.data.phone: expected "", got ${'phone' in data ? safeValue(data.phone) : 'absent'}`];
    },
  ),
];
