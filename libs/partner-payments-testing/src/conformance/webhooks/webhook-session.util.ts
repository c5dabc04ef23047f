/**
 * The receivers of a run: the current one (options.webhooks) and, for the registration probe, the
 * previous one, listening for the whole run; on a simulator the hooks register both in turn.
 */
import type { ConformanceOptions } from '../probe.types';
import type { ConformanceRunFixtures } from './webhook-fixtures.service';
import { ConformanceWebhookInbox } from './webhook-inbox.service';

/**
 * Runs `probes` with the receivers listening when options.webhooks asks for them. A hook that
 * points the deliveries (a simulator) registers the previous receiver's URL and then the current
 * one, as an operator re-registering at the partner would (evidence §11 N23), and puts the original
 * target back afterwards; at the partner the operator has registered both, out of band (spec 6.1.1).
 */
export async function withWebhookInbox(
  options: ConformanceOptions,
  ctx: ConformanceRunFixtures,
  probes: () => Promise<void>,
): Promise<void> {
  const webhooks = options.webhooks;
  if (!webhooks) return probes();
  const point = options.hooks?.pointWebhooksAt;
  const previousAt = webhooks.previous ?? (point ? { host: webhooks.host, port: 0 } : undefined);
  const restores: (() => Promise<void>)[] = [];
  const inboxes: ConformanceWebhookInbox[] = [];
  try {
    const inbox = await ConformanceWebhookInbox.start(webhooks);
    inboxes.push(inbox);
    const previous = previousAt && (await ConformanceWebhookInbox.start({ ...webhooks, ...previousAt }));
    if (previous) inboxes.push(previous);
    const clientUuid = options.credentials.clientUuid;
    if (point && previous) restores.unshift(await point(previous.url, clientUuid));
    if (point) restores.unshift(await point(inbox.url, clientUuid));
    ctx.webhookInbox = inbox;
    ctx.previousWebhookInbox = previous;
    await probes();
  } finally {
    // Last registration first: the first one's restore puts the original target back.
    for (const restore of restores) await restore();
    for (const inbox of inboxes) await inbox.close();
  }
}
