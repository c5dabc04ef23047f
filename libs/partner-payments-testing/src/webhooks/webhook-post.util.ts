import type { DeliveryRecord } from '../control/control.types';
import { nowIso } from '../server/ids.util';
import type { SandboxLogger } from '../server/sandbox.types';
import type { ClientAccount } from '../server/state.types';
import type { Telemetry } from '../server/telemetry.store';
import { printableUrl } from '../server/url-mask.util';
import { SIGNATURE_HEADER, signPartnerWebhook } from './webhook-signing.util';

/**
 * Sends one delivery to the account's URL, signed with the secret the record asks for (spec 6.1.3),
 * and records the outcome on it: the receiver's status, `no_url`, or the failure with the URL masked.
 * Never retried (spec 6.1.4).
 */
export async function postDelivery(
  record: DeliveryRecord,
  account: ClientAccount,
  timeoutMs: number,
  telemetry: Telemetry,
  logger: SandboxLogger,
): Promise<void> {
  const secret = record.signedWithPreviousSecret
    ? (account.previousWebhookSecret ?? account.webhookSecret)
    : account.webhookSecret;
  record.signature = signPartnerWebhook(record.body, secret);
  record.url = account.webhookUrl ?? null;
  record.sentAt = nowIso();
  if (!account.webhookUrl) {
    record.outcome = 'no_url';
    return;
  }
  try {
    const response = await fetch(account.webhookUrl, {
      method: 'POST',
      // evidence §11 N22 [T3raw webhooks/32]: the partner's deliveries carry content-type and
      // the signature only (no timestamp, no event-name header), from a `node` user agent.
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: record.signature,
        'user-agent': 'node',
      },
      body: record.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer().catch(() => undefined);
    record.status = response.status;
    record.outcome = 'delivered';
    telemetry.counters.webhooksSent++;
  } catch (error) {
    record.outcome = 'failed';
    const message =
      error instanceof Error
        ? error.cause instanceof Error
          ? error.cause.message
          : error.message
        : String(error);
    // fetch quotes the URL in some errors (e.g. one with user:password@): never keep it raw.
    record.error = message.split(account.webhookUrl).join(printableUrl(account.webhookUrl));
    logger.warn(
      `webhook ${record.event} to ${printableUrl(account.webhookUrl)} not delivered: ${record.error} (not retried, spec 6.1.4)`,
    );
  }
}
