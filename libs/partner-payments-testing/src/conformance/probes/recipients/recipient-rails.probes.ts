/** Recipient rail details the evidence confirmed at the partner's sandbox (evidence §4). */
import type { ConformanceProbe, Observation } from '../../probe.types';
import { fixtureRecipient, swiftAccount, wireAccount } from '../../probe-bodies.util';
import { safeValue, t } from '../../shape.util';
import { evidence, hasDetail, namesPath, postRecipient, zodError } from '../probe-shapes.util';

const field = (o: Observation, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o.body);

const expectValue = (path: string, value: unknown) => (o: Observation) =>
  field(o, path) === value
    ? []
    : [`body.${path}: expected ${safeValue(value)}, got ${safeValue(field(o, path))}`];

/** evidence §11 N28: the partner's words for a TRON address that fails base58check. */
const TRON_MESSAGE = 'Tron wallet address must start with T and be 34 characters long (base58check encoded)';

/** evidence §4 [T3r DRIFT-31]: `2026-05-28 00:52:49.879228+00`; §11 N29: the fraction 0 to 6 digits. */
const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?\+00$/;

export const RECIPIENT_RAIL_PROBES: ConformanceProbe[] = [
  {
    id: 'recipients.unknown-fields-dropped',
    area: 'recipients',
    behaviour: 'Unknown fields on recipient create (holder_name) are silently dropped: 201, not echoed',
    sources: [evidence('[T3r DRIFT-37]'), evidence('[T2s Recipients.cs]')],
    writes: true,
    needs: ['user'],
    creates: 'recipient',
    cleanup: 'none possible (no DELETE); tagged metadata.conformance_run',
    request: postRecipient((userId, runId) => ({
      ...fixtureRecipient(userId, runId),
      holder_name: 'Ignored Holder',
    })),
    expect: { status: 201, shape: t.object({ recipient_id: t.string }, ['holder_name']) },
  },
  {
    id: 'recipients.timestamps',
    area: 'recipients',
    behaviour:
      'Recipient timestamps come in PostgreSQL text form (2026-05-28 00:52:49.879228+00), the fraction of varying length (.43984)',
    sources: [
      evidence('[T3r DRIFT-31]'),
      evidence('§11 N29 [T3raw recipients/26-success-201-ach-iter2.json]'),
      evidence('[T2s Recipients.cs]'),
    ],
    writes: true,
    needs: ['recipient'],
    request: async (ctx) => ({ method: 'GET', path: `/v1/recipients/${(await ctx.recipient()).id}` }),
    expect: { status: 200, shape: t.object({ created_ts: t.string, updated_ts: t.string }) },
    verify: (o) =>
      PG_TIMESTAMP.test(String(field(o, 'created_ts')))
        ? []
        : ['body.created_ts: expected PostgreSQL text form (space, +00), got another format'],
  },
  {
    id: 'recipients.doc-type-ssn',
    area: 'recipients',
    behaviour: 'doc_type on US rails is id|dni|passport|ein: ssn answers 400 "Invalid enum value"',
    sources: [evidence('[T3r DRIFT-27]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: postRecipient((userId, runId) =>
      fixtureRecipient(userId, runId, { ...wireAccount(), doc_type: 'ssn', doc_number: '123-45-6789' }),
    ),
    expect: { status: 400, shape: zodError },
    verify: namesPath('account.doc_type'),
  },
  {
    id: 'recipients.tron-usdt-only',
    area: 'recipients',
    behaviour: 'WALLET on tron takes USDT only: USDC answers 400',
    sources: [evidence('[T2s Enums.cs]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: postRecipient((userId) => ({
      user_id: userId,
      first_name: 'Tron',
      last_name: 'Probe',
      account: {
        account_type: 'WALLET',
        network: 'tron',
        token: 'USDC',
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      },
    })),
    expect: { status: 400, shape: zodError },
  },
  {
    id: 'recipients.tron-base58check',
    area: 'recipients',
    behaviour:
      'A TRON address that fails base58check answers 400 on account.address: "Tron wallet address must start with T and be 34 characters long (base58check encoded)"',
    sources: [evidence('§11 N28 [T3raw recipients/03-fail-400-usdt.json]'), evidence('[T3r DRIFT-28]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: postRecipient((userId) => ({
      user_id: userId,
      first_name: 'Tron',
      last_name: 'Probe',
      // The USDT contract address with its last character changed: the checksum fails.
      account: {
        account_type: 'WALLET',
        network: 'tron',
        token: 'USDT',
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u',
      },
    })),
    expect: { status: 400, shape: zodError },
    verify: hasDetail('account.address', TRON_MESSAGE, 'custom'),
  },
  {
    id: 'recipients.spei-country',
    area: 'recipients',
    behaviour: 'SPEI takes clabe + bank_name; the country is set to MX from the CLABE whatever was sent',
    sources: [evidence('[T3r DRIFT-38]'), evidence('[T2s Recipients.cs]')],
    writes: true,
    needs: ['user'],
    creates: 'recipient',
    cleanup: 'none possible (no DELETE); tagged metadata.conformance_run',
    request: postRecipient((userId, runId) => ({
      user_id: userId,
      first_name: 'Spei',
      last_name: 'Probe',
      account: {
        account_type: 'SPEI',
        clabe: '002010077777777771',
        bank_name: 'Banamex',
        doc_country_code: 'US',
      },
      metadata: { conformance_run: runId },
    })),
    expect: { status: 201, shape: t.object({ recipient_id: t.string, account_type: t.enum('SPEI') }) },
    verify: expectValue('account_details.doc_country_code', 'MX'),
  },
  {
    id: 'recipients.swift-post-blank-state',
    area: 'recipients',
    behaviour: 'The SWIFT create answer has bank_address.state and postal_code as "" (a later GET has them)',
    sources: [evidence('[T3r DRIFT-32]')],
    writes: true,
    needs: ['user'],
    creates: 'recipient',
    cleanup: 'none possible (no DELETE); tagged metadata.conformance_run',
    request: postRecipient((userId, runId) => ({
      ...fixtureRecipient(userId, runId, swiftAccount()),
      phone: '+34911234567',
      address: {
        street_name: 'Gran Via 1',
        city: 'Madrid',
        state: 'Madrid',
        postal_code: '28013',
        country: 'ES',
      },
    })),
    expect: { status: 201, shape: t.object({ recipient_id: t.string, account_type: t.enum('SWIFT') }) },
    verify: (o) => [
      ...expectValue('account_details.bank_address.state', '')(o),
      ...expectValue('account_details.bank_address.postal_code', '')(o),
    ],
  },
];
