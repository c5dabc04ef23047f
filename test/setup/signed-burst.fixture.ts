/**
 * A burst of signed deliveries at a webhook route, `inFlight` at a time, as the partner sends
 * them. `afterEach(acked)` runs after every delivery with the count acknowledged so far, so a
 * test can SIGKILL the app mid-burst. A delivery answered other than 2xx, reset or refused is
 * not acknowledged: the partner never sends it again (spec 6.1.4).
 */
import { signPartnerWebhook } from '@partner-payments/testing';

export interface BurstEvent {
  eventId: string;
  body: string;
}

export async function sendSignedBurst(options: {
  url: string;
  secret: string;
  events: readonly BurstEvent[];
  inFlight: number;
  afterEach?: (acknowledged: number) => void;
}): Promise<Set<string>> {
  const acked = new Set<string>();
  let next = 0;
  const sender = async (): Promise<void> => {
    while (next < options.events.length) {
      const e = options.events[next++];
      try {
        const answer = await fetch(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-signature-sha256': signPartnerWebhook(e.body, options.secret),
          },
          body: e.body,
          signal: AbortSignal.timeout(10_000),
        });
        await answer.arrayBuffer();
        if (answer.status >= 200 && answer.status < 300) acked.add(e.eventId);
      } catch {
        // reset or refused: not acknowledged
      }
      options.afterEach?.(acked.size);
    }
  };
  await Promise.all(Array.from({ length: options.inFlight }, sender));
  return acked;
}
