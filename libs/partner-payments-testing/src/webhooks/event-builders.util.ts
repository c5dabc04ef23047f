/**
 * Builders for every event payload of spec 6.3, in the envelope of spec 6.2 and with the payload
 * rules of spec 6.4 (and the provider-facts examples). Pure: the sandbox uses them to deliver, and
 * users' tests use them to post hand-made events at their own receivers.
 */
import { newId, nowIso } from '../server/ids.util';

export type JsonObject = { [key: string]: unknown };

/** Standard flat envelope (spec 6.2): `{ event, data: { event_id, ... } }`. No root-level event_id. */
export interface FlatPartnerEvent<D extends JsonObject = JsonObject> {
  event: string;
  data: D & { event_id: string };
}

/** V2 envelope of payout.status_changed (spec 6.2). */
export interface V2PartnerEvent<D extends JsonObject = JsonObject> {
  event: 'payout.status_changed';
  data: { event_id: string; event_type: 'payout.status_changed'; created_at: string; data: D };
}

export type PartnerEventBody = FlatPartnerEvent | V2PartnerEvent;

/** Events that echo the resource metadata (spec 6.4.1); every other event carries none. */
export const EVENTS_WITH_METADATA: readonly string[] = ['user.created', 'virtual_account.created'];

/** Any flat event; strips `metadata` from events that must not carry it (spec 6.4.1). */
export function buildFlatEvent<D extends JsonObject>(
  event: string,
  data: D & { event_id?: string },
): FlatPartnerEvent<D> {
  const { event_id, ...rest } = data;
  const body: JsonObject = { event_id: event_id ?? newId(), ...rest };
  if (EVENTS_WITH_METADATA.includes(event)) body.metadata = (data.metadata as JsonObject | undefined) ?? {};
  else delete body.metadata;
  return { event, data: body as D & { event_id: string } };
}

export interface UserEventInput extends JsonObject {
  user_id: string;
  event_id?: string;
}

/**
 * user.created: echoes metadata, `{}` when empty (spec 6.4.1). A `phone` passed as null or absent
 * from a user that has none goes out as `""` (evidence §11 N22 [T3raw webhooks/32]: `"phone":""`).
 */
export const buildUserCreated = (
  data: UserEventInput & { metadata?: Record<string, string>; email?: string; phone?: string | null },
) =>
  buildFlatEvent('user.created', {
    ...data,
    ...('phone' in data ? { phone: data.phone ?? '' } : {}),
    metadata: data.metadata ?? {},
  });
export const buildUserUpdated = (data: UserEventInput) => buildFlatEvent('user.updated', data);
/** evidence §9: `{ event_id, user_id, previous_status, new_status }`, UPPERCASE, no `status`. */
export const buildUserStatusChanged = (
  data: UserEventInput & { previous_status: string; new_status: string },
) => buildFlatEvent('user.status_changed', data);
/** Not shown in the evidence; lowercase like the legacy `verification_status` field of the user. */
export const buildUserVerificationAccepted = (data: UserEventInput) =>
  buildFlatEvent('user.verification.accepted', { verification_status: 'verified', ...data });
/** Only for a declined provider result or a rare session expiry, never an outage (spec 6.4.9); evidence §9 shape. */
export const buildUserVerificationFailed = (data: UserEventInput & { reasons?: string[] }) =>
  buildFlatEvent('user.verification.failed', { verification_status: 'rejected', reasons: [], ...data });
/** person_reference_id null for an individual, the owner's provider reference for a business (spec 6.4.2). */
export const buildUserLivenessCompleted = (
  data: UserEventInput & { person_reference_id: string | null; result?: string },
) => buildFlatEvent('user.liveness_completed', { result: 'approved', ...data }); // evidence §9

export const buildVirtualAccountCreated = (
  data: JsonObject & {
    virtual_account_id: string;
    user_id: string;
    status: string;
    metadata?: Record<string, string>;
    event_id?: string;
  },
) => buildFlatEvent('virtual_account.created', { ...data, metadata: data.metadata ?? {} });

export type DepositRail = 'WIRE' | 'ACH' | 'RTP';

/** Deposit source fields by rail (spec 6.4.3); all optional, common: payment_rail and sender_name. */
export function buildDepositSource(rail: DepositRail, overrides: JsonObject = {}): JsonObject {
  const common = { payment_rail: rail.toLowerCase(), sender_name: 'Sandbox Sender LLC' };
  if (rail === 'WIRE') {
    return {
      ...common,
      imad: '20260601MMQFMP0A000001',
      omad: '20260601QMGFT015000001',
      wire_message: 'sandbox wire',
      ...overrides,
    };
  }
  if (rail === 'ACH') {
    return {
      ...common,
      sender_account_number: '****6789',
      reference_number: '000000001',
      trace_number: '021000021234567',
      sec_code: 'CCD',
      memo: 'sandbox ach',
      ...overrides,
    };
  }
  return { ...common, ...overrides };
}

export interface DepositEventInput extends JsonObject {
  user_id: string;
  virtual_account_id: string;
  deposit_id: string;
  amount: string;
  currency: string;
  source: JsonObject;
  event_id?: string;
}

/** provider-facts: `{ event_id, user_id, virtual_account_id, deposit_id, amount, currency, created_at, source }`. */
export const buildDepositFundsReceived = (data: DepositEventInput, microdeposit = false) =>
  buildFlatEvent(
    microdeposit ? 'virtual_account.microdeposit_funds_received' : 'virtual_account.deposit_funds_received',
    { created_at: nowIso(), ...data },
  );

export interface PayoutEventInput extends JsonObject {
  payout_id: string;
  event_id?: string;
}

/** payout.created / payout.pending / payout.processing: flat, lowercase data.status (spec 6.2, 6.4.5). */
export function buildPayoutProgress(
  event: 'payout.created' | 'payout.pending' | 'payout.processing',
  data: PayoutEventInput,
): FlatPartnerEvent {
  return buildFlatEvent(event, { ...data, status: event.slice('payout.'.length) });
}

export type TerminalPayoutEvent = 'payout.completed' | 'payout.failed' | 'payout.returned';

/**
 * Terminal flat payout events (spec 6.4.4-6.4.6): lowercase status (completed, failed, returned or
 * cancelled for an ACT-rail cancellation), reference_number and recipient; no error_code, no metadata.
 */
export function buildPayoutTerminal(
  event: TerminalPayoutEvent,
  data: PayoutEventInput & { reference_number: string | null; recipient: JsonObject; status?: string },
): FlatPartnerEvent {
  const status =
    data.status ??
    { 'payout.completed': 'completed', 'payout.failed': 'failed', 'payout.returned': 'returned' }[event];
  const body: JsonObject = { ...data, status: status.toLowerCase() };
  delete body.error_code;
  return buildFlatEvent(event, body as PayoutEventInput);
}

export interface PayoutStatusChangedInput extends JsonObject {
  payout_id: string;
  status: string;
  previous_status: string | null;
  amount: string;
  recipient: JsonObject;
  destination_amount?: string;
  review_reason?: string;
  event_id?: string;
  created_at?: string;
}

/** payout.status_changed, V2 envelope, UPPERCASE statuses (spec 6.2, 6.4.5, 6.4.7). */
export function buildPayoutStatusChanged(input: PayoutStatusChangedInput): V2PartnerEvent {
  const { event_id, created_at, ...rest } = input;
  const inner: JsonObject = {
    ...rest,
    status: input.status.toUpperCase(),
    previous_status: input.previous_status?.toUpperCase() ?? null,
    destination_amount: input.destination_amount ?? input.amount,
  };
  if (input.review_reason === undefined) delete inner.review_reason;
  delete inner.metadata;
  return {
    event: 'payout.status_changed',
    data: {
      event_id: event_id ?? newId(),
      event_type: 'payout.status_changed',
      created_at: created_at ?? nowIso(),
      data: inner,
    },
  };
}

/** The event_id of either envelope (spec 6.1.4: data.event_id, never at the root). */
export function eventIdOf(body: PartnerEventBody | JsonObject): string | undefined {
  const data = (body as { data?: { event_id?: unknown } }).data;
  return typeof data?.event_id === 'string' ? data.event_id : undefined;
}
