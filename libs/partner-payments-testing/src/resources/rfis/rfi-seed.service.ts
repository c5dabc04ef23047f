import type { SeedRfiInput, SeedRfiItemInput } from '../../control/control-inputs.types';
import { buildFlatEvent } from '../../webhooks/event-builders.util';
import { newId, nowIso } from '../../server/ids.util';
import type { SandboxContext } from '../../server/sandbox-context.util';
import type { UserRecord } from '../../server/state.types';
import type { AnswerType, RfiItemRecord, RfiRecord } from '../../server/rfi-state.types';

/** Default answer_spec by answer_type (provider-facts RFIs). */
export const DEFAULT_ANSWER_SPECS: Record<AnswerType, Record<string, unknown>> = {
  text_long: { max_length: 2000 },
  text_short: { max_length: 50 },
  number: { min: 0, max: 10_000_000, unit: 'USD' },
  date: { min_age: 18 },
  boolean: {},
  choice: { options: ['salary', 'savings', 'investments', 'business_income'] },
  identifier: { format: 'ein' },
  document: {
    mime_types: ['application/pdf', 'image/jpeg', 'image/png'],
    max_files: 3,
    document_type: 'proof_of_address',
  },
  ubo_link: { url: 'https://liveness.sandbox.invalid/ubo' },
};

const DEFAULT_PROMPTS: Record<AnswerType, [string, string | null]> = {
  text_long: ['Describe the nature of the business and its customers.', 'business_description'],
  text_short: ['What is the trading name?', null],
  number: ['Expected monthly volume in USD?', 'expected_monthly_volume'],
  date: ['Date of birth of this person?', 'date_of_birth'],
  boolean: ['Is the company publicly listed?', null],
  choice: ['What is the main source of funds?', 'source_of_funds'],
  identifier: ['Employer Identification Number (EIN)?', 'tax_id'],
  document: ['Upload a proof of address dated within 3 months.', null],
  ubo_link: ['Each beneficial owner completes identity verification.', null],
};

export const ALL_ANSWER_TYPES = Object.keys(DEFAULT_ANSWER_SPECS) as AnswerType[];

function defaultItems(user: UserRecord): SeedRfiItemInput[] {
  const person = user.associated_persons[0];
  return ALL_ANSWER_TYPES.map((answer_type) => ({
    answer_type,
    subject:
      answer_type === 'date' && person
        ? {
            person_id: person.person_id,
            display_name: [person.first_name, person.last_name].filter(Boolean).join(' ') || null,
          }
        : null,
  }));
}

export function seedRfi(ctx: SandboxContext, input: SeedRfiInput): RfiRecord {
  const user = ctx.store.users.get(String(input.userId).toLowerCase());
  if (!user) throw new Error(`unknown user ${input.userId}`);
  const now = nowIso();
  const items: RfiItemRecord[] = (input.items ?? defaultItems(user)).map((spec, i) => {
    if (!ALL_ANSWER_TYPES.includes(spec.answer_type))
      throw new Error(`unknown answer_type ${String(spec.answer_type)}`);
    const [prompt, targetKey] = DEFAULT_PROMPTS[spec.answer_type];
    return {
      item_id: newId(),
      ordinal: i + 1,
      prompt: spec.prompt ?? prompt,
      answer_type: spec.answer_type,
      answer_spec: { ...(spec.answer_spec ?? DEFAULT_ANSWER_SPECS[spec.answer_type]) },
      target_key: spec.target_key === undefined ? targetKey : spec.target_key,
      subject: spec.subject ?? null,
      status: 'pending',
      answer_value: null,
      documents: [],
      review_note: null,
      updated_at: null,
      returned_at: null,
    };
  });
  const rfi: RfiRecord = {
    rfi_id: newId(),
    clientUuid: user.clientUuid,
    user_id: user.user_id,
    status: input.status ?? 'pending',
    due_at: input.dueAt ?? new Date(Date.now() + 14 * 86_400_000).toISOString(),
    blocking: input.blocking ?? null,
    resolution_reason: null,
    items,
    files: new Map(),
    created_at: now,
    updated_at: now,
  };
  ctx.store.rfis.set(rfi.rfi_id, rfi);
  ctx.telemetry.created('rfis');
  // provider-facts (weak): rfi.* events carry no items; opt-in.
  if (ctx.options.rfiEvents) {
    ctx.webhooks.emit(
      rfi.clientUuid,
      buildFlatEvent('rfi.created', { rfi_id: rfi.rfi_id, user_id: rfi.user_id, status: rfi.status }),
    );
  }
  return rfi;
}

/** An item as the API shows it (spec 2.1): display_name re-read, null when the person is gone. */
export function rfiItemView(ctx: SandboxContext, rfi: RfiRecord, item: RfiItemRecord) {
  let subject = item.subject;
  if (subject) {
    const person = ctx.store.users
      .get(rfi.user_id)
      ?.associated_persons.find((p) => p.person_id === subject?.person_id);
    const name = person
      ? [person.first_name, person.last_name].filter(Boolean).join(' ') || subject.display_name
      : null;
    subject = { person_id: subject.person_id, display_name: name };
  }
  return {
    ...item,
    subject,
    answer_spec: { ...item.answer_spec },
    documents: item.documents.map((d) => ({ ...d })),
  };
}

/**
 * An entry of GET /v1/rfis: the parent fields, no `items`. evidence §7 [T1 KiraApiClient,
 * AnswerRfiService]: the partner's list entries may lack items (re-read the detail), so the sandbox
 * leaves them out of every entry, and an app that reads items from the list fails here first.
 */
export function rfiListEntryView(rfi: RfiRecord) {
  return {
    rfi_id: rfi.rfi_id,
    user_id: rfi.user_id,
    status: rfi.status,
    due_at: rfi.due_at,
    blocking: rfi.blocking ? { ...rfi.blocking } : null,
    resolution_reason: rfi.resolution_reason,
    created_at: rfi.created_at,
    updated_at: rfi.updated_at,
  };
}

/** GET /v1/rfis/{id}: the parent fields and every item (evidence §7). */
export function rfiView(ctx: SandboxContext, rfi: RfiRecord) {
  return { ...rfiListEntryView(rfi), items: rfi.items.map((i) => rfiItemView(ctx, rfi, i)) };
}

/** After an answer round: the RFI is answered once every item is (provider-facts RFI statuses). */
export function refreshRfiStatus(rfi: RfiRecord): void {
  if (rfi.status !== 'pending' && rfi.status !== 'answered') return;
  rfi.status = rfi.items.every((i) => i.status === 'answered') ? 'answered' : 'pending';
  rfi.updated_at = nowIso();
}
