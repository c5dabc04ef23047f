import type { RecipientRecord } from '../../server/state.types';

/**
 * A timestamp in PostgreSQL's text form, as the partner sends recipients' created_ts/updated_ts
 * (evidence §4 [T3r DRIFT-31]): `2026-05-28 00:52:49.879228+00` (space, microseconds, `+00`).
 * PostgreSQL drops trailing zeros of the fraction, so its length varies (`.43984`, evidence §11
 * N29 [T3raw recipients/26]) and a whole second has none. The sandbox keeps milliseconds and adds
 * a random sub-millisecond part, so every length from none to six digits occurs. An ISO parser
 * that insists on `T`, `Z` or three digits fails on it, which is the point of sending it.
 */
export function postgresTimestamp(iso: string, micros = Math.floor(Math.random() * 1000)): string {
  const d = new Date(iso);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const fraction = `${pad(d.getUTCMilliseconds(), 3)}${pad(micros, 3)}`.replace(/0+$/, '');
  return `${date} ${time}${fraction ? `.${fraction}` : ''}+00`;
}

/**
 * The recipient as the partner answers it, the same on POST and GET (evidence §4 [T2s][D
 * get-a-recipient]): `recipient_id` (never `id`), no `user_id`, empty name and contact fields
 * omitted, UPPERCASE account_type, unmasked account_details [T3r DRIFT-30], metadata `{}` when
 * empty. `address` is an object when a city is on file, else a string, else absent.
 * `justCreated`: the SWIFT POST answer carries bank_address.state and postal_code as "" (a later
 * GET has them) [T3r DRIFT-32]; replays of that POST answer the same.
 */
export function recipientView(r: RecipientRecord, justCreated = false): Record<string, unknown> {
  const view: Record<string, unknown> = { recipient_id: r.recipient_id, type: r.type };
  for (const f of ['first_name', 'last_name', 'company_name', 'email', 'phone'] as const)
    if (r[f]) view[f] = r[f];
  const address = addressView(r.address);
  if (address !== undefined) view.address = address;
  const details = { ...r.account_details };
  if (justCreated && r.account_type === 'SWIFT' && typeof details.bank_address === 'object') {
    details.bank_address = { ...(details.bank_address as object), state: '', postal_code: '' };
  }
  return {
    ...view,
    account_type: r.account_type,
    account_details: details,
    metadata: { ...r.metadata },
    created_ts: r.created_ts,
    updated_ts: r.updated_ts,
  };
}

function addressView(address: RecipientRecord['address']): Record<string, unknown> | string | undefined {
  if (address === undefined || typeof address === 'string') return address || undefined;
  if (address.city) return { ...address };
  return address.street_name || undefined;
}

/** The recipient object carried by terminal payout events and V2 payloads (spec 6.4.4). */
export function recipientSummary(r: RecipientRecord | undefined): Record<string, unknown> {
  if (!r) return {};
  const d = r.account_details;
  const number = String(d.account_number ?? d.clabe ?? '');
  return {
    recipient_id: r.recipient_id,
    type: r.type,
    name: r.company_name ?? [r.first_name, r.last_name].filter(Boolean).join(' '),
    account_type: r.account_type,
    ...(r.account_type === 'WALLET'
      ? { address: d.address, network: d.network }
      : { bank_name: d.bank_name ?? null, account_number_last4: number.slice(-4) }),
  };
}
