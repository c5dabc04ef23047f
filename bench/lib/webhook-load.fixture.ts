/**
 * Signed webhook deliveries for autocannon: each a new user.created with a new data.event_id (and
 * user), made and signed BEFORE the round starts, so the load generator spends the same little
 * CPU per request whichever server it hammers (it shares the 2 cores with them).
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { buildUserCreated, signPartnerWebhook } from '@partner-payments/testing';

export interface SignedDelivery {
  eventId: string;
  body: string;
  signature: string;
}

export function signedDeliveries(count: number, secret: string): SignedDelivery[] {
  return Array.from({ length: count }, () => {
    const eventId = randomUUID();
    // A new event and user per delivery: the inbox insert and the projection write are real work.
    const body = JSON.stringify(
      buildUserCreated({ event_id: eventId, user_id: randomUUID(), status: 'CREATED' }),
    );
    return { eventId, body, signature: signPartnerWebhook(body, secret) };
  });
}

export interface DeliveryRound {
  /** Answers per second over the round: answers / time from the start to the last answer. */
  rate: number;
  /** From the start to the last answer (the rate's denominator). */
  answeredMs: number;
  /** Until autocannon resolved: up to one of its 1-second sample ticks after the last answer. */
  wallMs: number;
  responses: number;
  responses2xx: number;
  non2xx: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** event ids handed to autocannon, in order. */
  sent: string[];
  /** event ids the server answered 2xx `{status:'accepted', eventId}` for (the app; the bare route names none). */
  accepted: Set<string>;
  /** "<status> <body.status>" -> count. */
  answers: Record<string, number>;
}

/**
 * Every delivery sent once, `connections` at a time; resolves when every answer is in. A request
 * unanswered after `timeoutS` seconds (autocannon's default, 10) counts as an error.
 */
export async function deliver(
  url: string,
  deliveries: readonly SignedDelivery[],
  connections: number,
  timeoutS = 10,
): Promise<DeliveryRound> {
  const sent: string[] = [];
  const accepted = new Set<string>();
  const answers: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  let lastAnswerAt = started;
  const result = await autocannon({
    url,
    connections,
    timeout: timeoutS,
    // `amount`: autocannon stops after exactly this many answers (a timed run drops the ones in flight).
    amount: deliveries.length,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const d = deliveries[next++ % deliveries.length];
          sent.push(d.eventId);
          return {
            ...req,
            body: d.body,
            headers: { 'content-type': 'application/json', 'x-signature-sha256': d.signature },
          };
        },
        onResponse: (status, body) => {
          lastAnswerAt = performance.now();
          let outcome = `${status}`;
          try {
            const b = JSON.parse(body) as { status?: string; eventId?: string };
            outcome = `${status} ${b.status ?? ''}`.trim();
            if (status >= 200 && status < 300 && b.status === 'accepted' && b.eventId)
              accepted.add(b.eventId);
          } catch {
            // a non-JSON answer is counted under its status alone
          }
          answers[outcome] = (answers[outcome] ?? 0) + 1;
        },
      },
    ],
  });
  const wallMs = performance.now() - started;
  // Not wallMs: with `amount`, autocannon notices the end only at its next sample tick (sampleInt,
  // 1 s), so wallMs is the work's time rounded up to the next whole second. A ~4 s round then read
  // as 4 or 5 s, and the same throughput as ~1,960/s or ~1,570/s: the two "plateaus" of the SQLite
  // ingest (bench/README.md). A round with errors or timeouts keeps wallMs (they have no answer).
  const answeredMs = result.errors + result.timeouts === 0 ? lastAnswerAt - started : wallMs;
  return {
    rate: result.requests.total / (answeredMs / 1000),
    answeredMs,
    wallMs,
    responses: result.requests.total,
    responses2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    sent,
    accepted,
    answers,
  };
}
