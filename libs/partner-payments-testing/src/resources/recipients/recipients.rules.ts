import { validateMetadata, type FieldError } from '../metadata.rules';
import type { RecipientRecord } from '../../server/state.types';

const isStr = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/** account_type values: WIRE and WALLET (spec 2.3); ACH and ACT accepted as sandbox extensions. */
export const ACCOUNT_TYPES = ['WIRE', 'WALLET', 'ACH', 'ACT'] as const;

export function validateRecipientBody(body: unknown): FieldError[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [{ field: 'body', message: 'must be a JSON object' }];
  const b = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (!isStr(b.user_id)) errors.push({ field: 'user_id', message: 'is required' });
  if (b.type !== 'business' && b.type !== 'individual')
    errors.push({ field: 'type', message: 'must be business or individual' });
  if (b.type === 'business' && !isStr(b.company_name))
    errors.push({ field: 'company_name', message: 'is required for a business' });
  if (b.type === 'individual') {
    if (!isStr(b.first_name)) errors.push({ field: 'first_name', message: 'is required for an individual' });
    if (!isStr(b.last_name)) errors.push({ field: 'last_name', message: 'is required for an individual' });
  }
  if (b.email !== undefined && (typeof b.email !== 'string' || !b.email.includes('@'))) {
    errors.push({ field: 'email', message: 'must be an email address' });
  }
  if (b.address !== undefined) {
    if (typeof b.address !== 'object' || b.address === null)
      errors.push({ field: 'address', message: 'must be an object' });
    else {
      const country = (b.address as Record<string, unknown>).country;
      if (country !== undefined && (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country))) {
        errors.push({ field: 'address.country', message: 'must be an ISO-2 country code' });
      }
    }
  }
  errors.push(...validateMetadata(b.metadata));
  const account = b.account as Record<string, unknown> | undefined;
  if (typeof account !== 'object' || account === null) {
    errors.push({ field: 'account', message: 'is required' });
    return errors;
  }
  const type = account.account_type;
  if (!ACCOUNT_TYPES.includes(type as (typeof ACCOUNT_TYPES)[number])) {
    errors.push({ field: 'account.account_type', message: `must be one of ${ACCOUNT_TYPES.join(', ')}` });
  } else if (type === 'WALLET') {
    for (const f of ['address', 'network', 'token'])
      if (!isStr(account[f])) errors.push({ field: `account.${f}`, message: 'is required' });
  } else {
    if (typeof account.routing_number !== 'string' || !/^\d{9}$/.test(account.routing_number)) {
      errors.push({ field: 'account.routing_number', message: 'must be 9 digits' });
    }
    if (typeof account.account_number !== 'string' || !/^\d{4,17}$/.test(account.account_number)) {
      errors.push({ field: 'account.account_number', message: 'must be 4 to 17 digits' });
    }
  }
  return errors;
}

/** Identity of "the same recipient" (provider-facts: 202 when it already existed). */
export function recipientIdentity(
  userId: string,
  accountType: string,
  details: Record<string, unknown>,
): string {
  const parts =
    accountType === 'WALLET'
      ? [details.address, details.network, details.token]
      : [details.routing_number, details.account_number];
  return [userId, accountType, ...parts.map((p) => String(p ?? '').toLowerCase())].join('|');
}

/** The bare recipient (spec 2.3). */
export function recipientView(r: RecipientRecord) {
  const view: Record<string, unknown> = { recipient_id: r.recipient_id, user_id: r.user_id, type: r.type };
  for (const f of ['company_name', 'first_name', 'last_name', 'email', 'address'] as const)
    if (r[f] !== undefined) view[f] = r[f];
  return {
    ...view,
    account_type: r.account_type,
    account_details: { ...r.account_details },
    created_ts: r.created_ts,
    updated_ts: r.updated_ts,
    metadata: { ...r.metadata },
  };
}

/** The recipient object carried by terminal payout events and V2 payloads (spec 6.4.4). */
export function recipientSummary(r: RecipientRecord | undefined): Record<string, unknown> {
  if (!r) return {};
  const d = r.account_details;
  return {
    recipient_id: r.recipient_id,
    type: r.type,
    name: r.company_name ?? [r.first_name, r.last_name].filter(Boolean).join(' '),
    account_type: r.account_type,
    ...(r.account_type === 'WALLET'
      ? { address: d.address, network: d.network }
      : { bank_name: d.bank_name ?? null, account_number_last4: String(d.account_number ?? '').slice(-4) }),
  };
}
