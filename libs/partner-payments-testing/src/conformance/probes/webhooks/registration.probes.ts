/**
 * The webhook target is one URL per client_uuid and the last registration wins (evidence §11 N23
 * [T3raw webhooks/32, security/ssrf-webhook-delivery-confirm]): with the operator's previous URL
 * and the current one both listening, the run's user.created reaches the current one only.
 */
import type { ConformanceProbe } from '../../probe.types';
import { evidence } from '../probe-shapes.util';
import { deliveryProbe } from './user-created.probes';

const N23 = evidence(
  '§11 N23 [T3raw webhooks/32-success-P1-stepC-webhook-receipt-snapshot.json, security/ssrf-webhook-delivery-confirm/README.md]',
);

export const WEBHOOK_REGISTRATION_PROBES: ConformanceProbe[] = [
  {
    // The delivery probes' user and delivery: no second create. The current receiver got it (the
    // fixture waits for that); the check is on the previous one.
    ...deliveryProbe(
      'webhooks.registration.last-wins',
      "One webhook URL per client, the last registration wins: after re-registering, the run's user.created reaches the new URL and nothing reaches the old one",
      [N23],
      async (_delivery, ctx) => {
        const { url, watchedMs, deliveries } = await ctx.previousRegistration();
        if (deliveries.length === 0) return [];
        const events = deliveries.map((d) => d.event ?? 'unknown').join(', ');
        return [
          `previous URL ${url}: got ${deliveries.length} deliver${deliveries.length > 1 ? 'ies' : 'y'} (${events}) within ${Math.round(watchedMs)} ms of the create, expected none: the registration before the last one still receives`,
        ];
      },
    ),
    // Skipped before any create when there is no previous receiver.
    needs: ['previousRegistration'],
    sandbox:
      'same (control.setWebhookUrl replaces the target; the kit sets the previous receiver and then the current one)',
  },
];
