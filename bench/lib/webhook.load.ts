/**
 * One autocannon phase of signed webhook deliveries, each a new user.created with a new
 * data.event_id (and user), remembering which ids were sent and which were answered "accepted".
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { buildUserCreated, signPartnerWebhook } from '@partner-payments/testing';

export interface LoadPhase {
  /** Either a duration (seconds) or an exact number of deliveries, never both: autocannon ignores duration when amount is set. */
  durationS?: number;
  amount?: number;
  connections: number;
}

export interface LoadOutcome {
  result: autocannon.Result;
  sent: Set<string>;
  accepted: Set<string>;
  /** "<status> <body.status>" -> count, e.g. "200 accepted". */
  answers: Record<string, number>;
}

export async function deliverSignedWebhooks(
  url: string,
  secret: string,
  phase: LoadPhase,
): Promise<LoadOutcome> {
  const sent = new Set<string>();
  const accepted = new Set<string>();
  const answers: Record<string, number> = {};
  const result = await autocannon({
    url,
    connections: phase.connections,
    ...(phase.amount !== undefined ? { amount: phase.amount } : { duration: phase.durationS ?? 10 }),
    requests: [
      {
        method: 'POST',
        // A new event and user per delivery: the inbox insert and the projection write are real work.
        setupRequest: (req) => {
          const eventId = randomUUID();
          sent.add(eventId);
          const body = JSON.stringify(
            buildUserCreated({ event_id: eventId, user_id: randomUUID(), status: 'CREATED' }),
          );
          return {
            ...req,
            body,
            headers: {
              'content-type': 'application/json',
              'x-signature-sha256': signPartnerWebhook(body, secret),
            },
          };
        },
        onResponse: (status, body) => {
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
  return { result, sent, accepted, answers };
}
