import { canonicalPartnerStatus } from '../../resources/shared/status.util';
import { hasSyntheticEventId, parsePartnerEnvelope } from './envelope.util';
import { PARTNER_CONTRACT_EVENTS } from './partner-event.constants';
import type { PartnerEventOf } from './partner-event.types';
import { PartnerWebhookPayloadError } from '../webhook.errors';

const recipient = {
  recipient_id: 'rcp_1',
  type: 'individual',
  first_name: 'Ada',
  last_name: 'L',
  account_type: 'WIRE',
};

/** One flat body per documented flat event (spec 6.3), with the fields of spec 6.4 / provider-facts. */
const FLAT: Array<{ name: string; data: Record<string, unknown>; status: string | null }> = [
  {
    name: 'user.created',
    data: { user_id: 'u1', status: 'CREATED', metadata: { crm: '42' } },
    status: 'CREATED',
  },
  { name: 'user.updated', data: { user_id: 'u1' }, status: null },
  {
    name: 'user.status_changed',
    data: { user_id: 'u1', previous_status: 'verifying', new_status: 'verified' },
    status: 'VERIFIED',
  },
  {
    name: 'user.verification.accepted',
    data: { user_id: 'u1', verification_status: 'VERIFIED' },
    status: 'VERIFIED',
  },
  {
    name: 'user.verification.failed',
    data: { user_id: 'u1', verification_status: 'REJECTED', reasons: ['doc'] },
    status: 'REJECTED',
  },
  {
    name: 'user.liveness_completed',
    data: { user_id: 'u1', person_reference_id: null, result: 'passed' },
    status: null,
  },
  {
    name: 'virtual_account.created',
    data: { virtual_account_id: 'va1', user_id: 'u1', status: 'approved', metadata: {} },
    status: 'APPROVED',
  },
  {
    name: 'virtual_account.deposit_funds_received',
    data: {
      user_id: 'u1',
      virtual_account_id: 'va1',
      deposit_id: 'd1',
      amount: '10.00',
      currency: 'USD',
      created_at: '2026-04-14T10:00:00Z',
      source: { payment_rail: 'wire', imad: 'I1' },
    },
    status: null,
  },
  {
    name: 'virtual_account.microdeposit_funds_received',
    data: {
      user_id: 'u1',
      virtual_account_id: 'va1',
      deposit_id: 'd2',
      amount: '0.01',
      currency: 'USD',
      source: { payment_rail: 'ach', trace_number: 'T' },
    },
    status: null,
  },
  { name: 'payout.created', data: { payout_id: 'p1', status: 'created' }, status: 'CREATED' },
  { name: 'payout.pending', data: { payout_id: 'p1', status: 'pending' }, status: 'PENDING' },
  { name: 'payout.processing', data: { payout_id: 'p1', status: 'processing' }, status: 'PROCESSING' },
  {
    name: 'payout.completed',
    data: { payout_id: 'p1', status: 'completed', reference_number: 'IMAD1', recipient },
    status: 'COMPLETED',
  },
  {
    name: 'payout.failed',
    data: { payout_id: 'p1', status: 'cancelled', reference_number: null, recipient },
    status: 'CANCELLED',
  },
  {
    name: 'payout.returned',
    data: { payout_id: 'p1', status: 'returned', reference_number: 'T1', recipient },
    status: 'RETURNED',
  },
];

const v2 = (inner: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    event: 'payout.status_changed',
    data: {
      event_id: 'evt_v2',
      event_type: 'payout.status_changed',
      created_at: '2026-04-14T11:00:00Z',
      data: inner,
      ...extra,
    },
  });

describe('parsePartnerEnvelope (spec 6.2)', () => {
  it('covers every documented event name', () => {
    const names = new Set([...FLAT.map((f) => f.name), 'payout.status_changed']);
    expect([...names].sort()).toEqual([...PARTNER_CONTRACT_EVENTS].sort());
  });

  it.each(FLAT)(
    'parses flat $name: event_id from data, canonical status, payload untouched',
    ({ name, data, status }) => {
      const body = JSON.stringify({
        event: name,
        data: { event_id: `evt_${name}`, ...data, future_field: 'kept' },
      });
      const event = parsePartnerEnvelope(Buffer.from(body));
      expect(event).toMatchObject({ name, eventId: `evt_${name}`, envelope: 'flat', known: true, status });
      expect(event.payload).toEqual({ event_id: `evt_${name}`, ...data, future_field: 'kept' });
      expect(canonicalPartnerStatus(event.rawStatus)).toBe(status);
    },
  );

  it('reads the deposit created_at as occurredAt and keeps the rail-specific source', () => {
    const body = JSON.stringify({ event: FLAT[7].name, data: { event_id: 'e', ...FLAT[7].data } });
    const event = parsePartnerEnvelope(body) as PartnerEventOf<'virtual_account.deposit_funds_received'>;
    expect(event.occurredAt).toBe('2026-04-14T10:00:00Z');
    expect(event.payload.source?.imad).toBe('I1');
  });

  it('parses the V2 envelope via data.data, status UPPERCASE with previous status', () => {
    const inner = {
      status: 'KYT_PENDING',
      previous_status: 'PROCESSING',
      payout_id: 'p1',
      amount: '5.00',
      recipient,
      review_reason: 'kyt',
    };
    const event = parsePartnerEnvelope(v2(inner)) as PartnerEventOf<'payout.status_changed'>;
    expect(event).toMatchObject({
      name: 'payout.status_changed',
      eventId: 'evt_v2',
      envelope: 'v2',
      status: 'KYT_PENDING',
      rawStatus: 'KYT_PENDING',
      previousStatus: 'PROCESSING',
      occurredAt: '2026-04-14T11:00:00Z',
    });
    expect(event.payload.data.review_reason).toBe('kyt');
  });

  it('recognises V2 by data.event_type even without data.data', () => {
    const body = JSON.stringify({
      event: 'payout.status_changed',
      data: { event_id: 'e2', event_type: 'payout.status_changed' },
    });
    expect(parsePartnerEnvelope(body)).toMatchObject({ envelope: 'v2', status: null });
  });

  it('recognises V2 by data.data being present, whatever its value, and reads no status outside it', () => {
    for (const inner of [null, 'x', []]) {
      const body = JSON.stringify({
        event: 'payout.status_changed',
        data: { event_id: 'e2b', status: 'completed', data: inner },
      });
      expect(parsePartnerEnvelope(body)).toMatchObject({ envelope: 'v2', status: null });
    }
  });

  it('recognises V2 by data.data under another event name', () => {
    const body = JSON.stringify({
      event: 'payout.something_new',
      data: { event_id: 'e3', data: { status: 'IN_REVIEW' } },
    });
    expect(parsePartnerEnvelope(body)).toMatchObject({ envelope: 'v2', known: false, status: 'IN_REVIEW' });
  });

  it('never takes event_id from the root (legacy envelope): hashes the body instead', () => {
    const body = JSON.stringify({
      event: 'payout.completed',
      event_id: 'root_id',
      data: { payout_id: 'p1', status: 'completed' },
    });
    const event = parsePartnerEnvelope(body);
    expect(event.eventId).not.toBe('root_id');
    expect(event.eventId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(hasSyntheticEventId(event)).toBe(true);
    expect(parsePartnerEnvelope(body).eventId).toBe(event.eventId);
  });

  it('takes data.event_id, not a root event_id, when both are present', () => {
    const body = JSON.stringify({
      event: 'payout.completed',
      event_id: 'root_id',
      data: { event_id: 'data_id', payout_id: 'p1', status: 'completed' },
    });
    expect(parsePartnerEnvelope(body).eventId).toBe('data_id');
  });

  it('ignores a leading UTF-8 BOM (signed bytes, not JSON) instead of refusing the event', () => {
    const json = JSON.stringify({ event: 'user.updated', data: { event_id: 'e_bom', user_id: 'u1' } });
    const raw = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]);
    expect(parsePartnerEnvelope(raw)).toMatchObject({ name: 'user.updated', eventId: 'e_bom' });
    expect(parsePartnerEnvelope(`\ufeff${json}`)).toMatchObject({ eventId: 'e_bom' });
  });

  it('decodes unicode escapes and surrounding whitespace like any JSON parser', () => {
    const raw = Buffer.from(
      '\n  {"event":"user.updated","data":{"event_id":"e_\\u00e9","user_id":"Jos\\u00e9 \u00e9"}}\r\n',
    );
    expect(parsePartnerEnvelope(raw)).toMatchObject({
      eventId: 'e_\u00e9',
      payload: { user_id: 'Jos\u00e9 \u00e9' },
    });
  });

  it('parses unknown event types without refusing them (spec 6.1.5)', () => {
    const body = JSON.stringify({
      event: 'user.document.download.failed',
      data: { event_id: 'e4', rfi_id: 'r1' },
    });
    expect(parsePartnerEnvelope(body)).toMatchObject({
      name: 'user.document.download.failed',
      known: false,
      eventId: 'e4',
      payload: { rfi_id: 'r1' },
    });
  });

  it.each([
    ['not JSON', '{"event":'],
    ['an array', '[{"event":"user.created"}]'],
    ['a string', '"user.created"'],
    ['null', 'null'],
    ['without event', '{"data":{"event_id":"e"}}'],
    ['with a non-string event', '{"event":42,"data":{}}'],
    ['with an empty event', '{"event":"  ","data":{}}'],
    ['empty', ''],
  ])('refuses a body that is %s with a 400 error', (_label, body) => {
    expect(() => parsePartnerEnvelope(body)).toThrow(PartnerWebhookPayloadError);
    try {
      parsePartnerEnvelope(body);
    } catch (error) {
      expect((error as PartnerWebhookPayloadError).status).toBe(400);
    }
  });

  // A lossy decoding would replace bad bytes with U+FFFD, so two different event ids would
  // become one and the second event be answered 'duplicate' and dropped.
  it('refuses a body that is not valid UTF-8 with a 400 naming the first bad byte', () => {
    const prefix = Buffer.from('{"event":"user.updated","data":{"event_id":"e_');
    const suffix = Buffer.from('"}}');
    for (const bad of [[0xff], [0xc3], [0xef, 0xbf], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
      const raw = Buffer.concat([prefix, Buffer.from(bad), suffix]);
      expect(() => parsePartnerEnvelope(raw)).toThrow(
        new PartnerWebhookPayloadError(
          `Webhook body is not valid UTF-8 (first invalid byte at offset ${prefix.length})`,
        ),
      );
    }
  });

  it('refuses text holding a lone surrogate (it has no UTF-8 form); an escaped one is JSON, kept whole', () => {
    const escaped = '{"event":"user.updated","data":{"event_id":"e_\\ud800"}}';
    expect(parsePartnerEnvelope(escaped).eventId).toBe('e_\ud800');
    const lone = '{"event":"user.updated","data":{"event_id":"e_\ud800"}}';
    expect(() => parsePartnerEnvelope(lone)).toThrow(
      new PartnerWebhookPayloadError('Webhook body is not valid UTF-8 (it holds a lone surrogate)'),
    );
  });

  it('tolerates a missing data object', () => {
    expect(parsePartnerEnvelope('{"event":"user.updated"}')).toMatchObject({ payload: {}, status: null });
  });
});

describe('canonicalPartnerStatus (spec 6.4.5)', () => {
  it.each([
    ['completed', 'COMPLETED'],
    ['COMPLETED', 'COMPLETED'],
    ['Kyt_Pending', 'KYT_PENDING'],
    ['in review', 'IN_REVIEW'],
    ['in-review', 'IN_REVIEW'],
    ['canceled', 'CANCELLED'],
    [' returned ', 'RETURNED'],
  ])('%s -> %s', (raw, canonical) => {
    expect(canonicalPartnerStatus(raw)).toBe(canonical);
  });

  it.each([[undefined], [null], [''], [3]])('%s -> null', (raw) => {
    expect(canonicalPartnerStatus(raw)).toBeNull();
  });
});

describe('the recorded user.created delivery (evidence §11 N22 [T3raw webhooks/32])', () => {
  it('reads its flat body: phone "" and UPPERCASE status, no user_id in the recorded prefix', () => {
    // The capture's first 200 bytes, closed after `status` (the rest was cut by the capture).
    const body =
      '{"event":"user.created","data":{"event_id":"704b1b38-4026-4f58-95ea-da803ae53eab","type":"business",' +
      '"email":"sec+ssrf-stepB-trigger-user-created-1779935166-ab93f0@example.com","phone":"","status":"CREATED"}}';
    const event = parsePartnerEnvelope(body) as PartnerEventOf<'user.created'>;
    expect(event).toMatchObject({
      name: 'user.created',
      eventId: '704b1b38-4026-4f58-95ea-da803ae53eab',
      known: true,
      status: 'CREATED',
    });
    expect(event.payload).toMatchObject({ phone: '', status: 'CREATED', type: 'business' });
  });
});

describe('older virtual-account events of the readme docs (evidence §11 N34)', () => {
  it.each([
    'virtual_account.deposit_payment_submitted',
    'virtual_account.deposit_payment_processed',
    'liquidation.deposit_received',
    'liquidation.payout_processing',
    'liquidation.payout_completed',
    'liquidation.payout_failed',
  ])('%s is read as an unknown event (answered 2xx, spec 6.1.5), its data kept', (name) => {
    const event = parsePartnerEnvelope(
      JSON.stringify({ event: name, data: { event_id: `evt_${name}`, amount: '1.00' } }),
    );
    expect(event).toMatchObject({ name, eventId: `evt_${name}`, known: false });
    expect(event.payload).toMatchObject({ amount: '1.00' });
  });

  it('an older virtual_account.created (bank "portage", source_deposit_instructions, destination null) is still the known event', () => {
    const event = parsePartnerEnvelope(
      JSON.stringify({
        event: 'virtual_account.created',
        data: {
          event_id: 'evt_va_old',
          type: 'individual',
          bank: 'portage',
          status: 'approved',
          source_deposit_instructions: {
            currency: 'USD',
            bank_name: 'Bank',
            bank_account_number: '1',
            bank_routing_number: '2',
            bank_beneficiary_name: 'A',
          },
          destination: null,
          created_at: '2026-01-01T00:00:00.000Z',
        },
      }),
    );
    expect(event).toMatchObject({ name: 'virtual_account.created', known: true, eventId: 'evt_va_old' });
    expect(event.payload).toMatchObject({ bank: 'portage', destination: null });
  });
});
