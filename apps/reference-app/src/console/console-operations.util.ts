import type { PartnerInboxDeadEntry, PartnerPayoutRequestEntity } from '@partner-payments/typeorm';
import { html, page, table, type Html } from './console-html.util';

const at = (d: Date | null): string => (d ? d.toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '—');

function retryForm(csrf: string, eventId: string | null): Html {
  return html`<form method="post" action="/console/inbox/dead/retry">
    <input type="hidden" name="_csrf" value="${csrf}" />${
      eventId === null ? '' : html`<input type="hidden" name="event_id" value="${eventId}" />`
    }<button type="submit">${eventId === null ? 'Retry every dead entry' : 'Retry'}</button>
  </form>`;
}

/**
 * What the jobs left to a person: payout requests marked needs_review (never re-sent: the
 * re-drive gave up on them, so someone checks the partner), and dead inbox entries (ids, event,
 * attempts, last error; never a body, which the partner never sends again, spec 6.1.4) with their retry.
 */
export function operationsPage(
  review: PartnerPayoutRequestEntity[],
  dead: PartnerInboxDeadEntry[],
  csrf: string,
  notice?: string,
): Html {
  const reviewRows = review.map(
    (r) =>
      html`<tr>
        <td>${r.idempotencyKey}</td>
        <td>${r.amount} ${r.currency}</td>
        <td>${r.recipientId}</td>
        <td>${r.attempts}</td>
        <td>${r.lastError ?? '—'}</td>
        <td>${at(r.updatedAt)}</td>
      </tr>`,
  );
  const deadRows = dead.map(
    (e) =>
      html`<tr id="dead-${e.eventId}">
        <td>${e.eventId}</td>
        <td>${e.eventName}</td>
        <td>${e.attempts}</td>
        <td>${e.lastError ?? '—'}</td>
        <td>${at(e.receivedAt)}</td>
        <td>${retryForm(csrf, e.eventId)}</td>
      </tr>`,
  );
  return page(
    'Payouts and inbox',
    html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
      <h2>Payout requests to review</h2>
      ${
        reviewRows.length
          ? html`${table('needs-review', ['Idempotency key', 'Amount', 'Recipient', 'Attempts', 'Last error', 'Since'], reviewRows)}
              <p class="meta">
                The app sends none of these again: check the partner for a payout with the key, then resolve
                it (PartnerPayoutOutbox.resolve).
              </p>`
          : html`<p>None.</p>`
      }
      <h2>Dead inbox entries</h2>
      ${
        deadRows.length
          ? html`${table('dead', ['Event id', 'Event', 'Attempts', 'Last error', 'Received', ''], deadRows)}
            ${retryForm(csrf, null)}`
          : html`<p>None.</p>`
      }`,
    { csrf },
  );
}
