/** Recipients as the partner's raw captures show them (evidence §11 N12, N15, N24, N26, N27). */
import { randomUUID } from 'node:crypto';
import type { ConformanceProbe, Observation } from '../../probe.types';
import { fixtureRecipient, recipientAddress } from '../../probe-bodies.util';
import { safeValue, t } from '../../shape.util';
import { evidence, postRecipient, typedError, zodError } from '../probe-shapes.util';

type Obj = Record<string, unknown>;
const bodyOf = (o: Observation): Obj => (o.body ?? {}) as Obj;

/** ACH as the capture sent it: no top-level `type`, `currency` and `country` inside `account`. */
const achAccount = () => ({
  account_type: 'ACH',
  routing_number: '021000021',
  account_number: '4000123456',
  type: 'checking',
  bank_name: 'Probe Bank',
  bank_address: '270 Park Ave, New York, NY 10017',
  doc_type: 'id',
  doc_number: 'D1234567',
  currency: 'USD',
  country: 'US',
});
const ACH_DETAILS = [
  'account_number',
  'bank_address',
  'bank_name',
  'doc_number',
  'doc_type',
  'routing_number',
  'type',
];

export const RECIPIENT_CAPTURE_PROBES: ConformanceProbe[] = [
  {
    id: 'recipients.create.several-issues',
    area: 'recipients',
    behaviour:
      'One 400 lists every field at fault: address.country USA (too_big) and account.doc_type ssn (invalid_enum_value) together',
    sources: [evidence('§11 N15 [T3raw recipients/02-fail-400-ach.json]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: postRecipient((userId, runId) => ({
      ...fixtureRecipient(userId, runId, { ...achAccount(), doc_type: 'ssn' }),
      address: { ...recipientAddress(), country: 'USA' },
    })),
    expect: { status: 400, shape: zodError },
    verify: (o) => {
      const details = (bodyOf(o).details ?? []) as Obj[];
      const code = (path: string) => details.find((d) => d.path === path)?.code;
      const out: string[] = [];
      if (code('address.country') !== 'too_big')
        out.push(
          `body.details[address.country].code: expected too_big, got ${safeValue(code('address.country'))}`,
        );
      if (code('account.doc_type') !== 'invalid_enum_value')
        out.push(
          `body.details[account.doc_type].code: expected invalid_enum_value, got ${safeValue(code('account.doc_type'))}`,
        );
      return out;
    },
  },
  {
    id: 'recipients.list.ignores-paging',
    area: 'recipients',
    behaviour: 'GET /v1/recipients ignores limit and offset (limit=0&offset=9999 answers every recipient)',
    sources: [evidence('§11 N24 [T3raw abuse/delete-recipient-pollution/_summary.json]')],
    writes: true,
    needs: ['recipient'],
    request: async (ctx) => ({
      method: 'GET',
      path: `/v1/recipients?user_id=${(await ctx.user()).id}&limit=0&offset=9999`,
    }),
    expect: { status: 200, shape: t.object({ recipients: t.array(t.any), total: t.integer }) },
    verify: (o) => {
      const b = bodyOf(o) as { recipients: unknown[]; total: number };
      return b.total >= 1 && b.recipients.length === b.total
        ? []
        : [`body: expected every recipient (total ≥ 1), got ${b.recipients.length} of ${b.total}`];
    },
  },
  {
    id: 'recipients.create.ach-defaults',
    area: 'recipients',
    behaviour:
      'ACH without top-level type answers type individual; account currency and country are dropped from account_details',
    sources: [evidence('§11 N26 [T3raw recipients/26-success-201-ach-iter2.json]')],
    writes: true,
    needs: ['user'],
    creates: 'recipient',
    cleanup: 'none possible (no DELETE); tagged metadata.conformance_run',
    request: postRecipient((userId, runId) => ({
      ...fixtureRecipient(userId, runId, achAccount()),
      type: undefined,
    })),
    expect: {
      status: 201,
      shape: t.object({
        type: t.enum('individual'),
        account_type: t.enum('ACH'),
        account_details: t.object({ routing_number: t.string }, ['currency', 'country']),
      }),
    },
    verify: (o) => {
      const keys = Object.keys((bodyOf(o).account_details ?? {}) as Obj).sort();
      const extra = keys.filter((k) => !ACH_DETAILS.includes(k));
      return extra.length === 0
        ? []
        : [`body.account_details: expected only ${ACH_DETAILS.join(', ')}, also ${extra.join(', ')}`];
    },
  },
  {
    id: 'recipients.create.spei-rfc',
    area: 'recipients',
    behaviour:
      'SPEI takes doc_type rfc and answers account_details { clabe, doc_type, doc_number, doc_country_code: MX } even when account.country says USA',
    sources: [evidence('§11 N27 [T3raw recipients/11-success-201-m2-spei-country-mismatch.json]')],
    writes: true,
    needs: ['user'],
    creates: 'recipient',
    cleanup: 'none possible (no DELETE); tagged metadata.conformance_run',
    request: postRecipient((userId, runId) => ({
      user_id: userId,
      first_name: 'Spei',
      last_name: 'Rfc',
      account: {
        account_type: 'SPEI',
        clabe: '002010077777777771',
        bank_name: 'Banamex',
        doc_type: 'rfc',
        doc_number: 'XAXX010101000',
        country: 'USA',
      },
      metadata: { conformance_run: runId },
    })),
    expect: {
      status: 201,
      shape: t.object({
        account_details: t.object({
          clabe: t.string,
          doc_type: t.enum('rfc'),
          doc_number: t.string,
          doc_country_code: t.enum('MX'),
        }),
      }),
    },
  },
  {
    id: 'recipients.get.unknown.names-id',
    area: 'recipients',
    behaviour:
      'GET /v1/recipients/{unknown id} answers 404 { error: { code: NOT_FOUND, message: "Recipient with ID <id> not found", details: {} } }',
    sources: [evidence('§11 N12 [T3raw security/bola-id-enumeration/01-bola-results.json]')],
    writes: false,
    request: () => ({ method: 'GET', path: `/v1/recipients/${randomUUID()}` }),
    expect: { status: 404, shape: typedError('NOT_FOUND') },
    verify: (o) => {
      const message = String((bodyOf(o).error as Obj | undefined)?.message);
      return /^Recipient with ID [0-9a-f-]{36} not found$/.test(message)
        ? []
        : [`body.error.message: expected "Recipient with ID <id> not found", got ${safeValue(message)}`];
    },
  },
];
