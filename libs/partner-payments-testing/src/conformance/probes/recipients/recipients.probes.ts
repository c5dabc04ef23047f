/** Recipients: spec 2.3 and 4.4, evidence §2 and §4. */
import type { ConformanceProbe } from '../../probe.types';
import {
  fixtureRecipient,
  recipientAddress,
  swiftAccount,
  walletAccount,
  wireAccount,
} from '../../probe-bodies.util';
import { t, type Shape } from '../../shape.util';
import {
  contract,
  evidence,
  hasDetail,
  namesPath,
  postRecipient,
  typedError,
  zodError,
} from '../probe-shapes.util';

const recipientShape = (accountType: string, details: Record<string, Shape>) =>
  t.object(
    {
      recipient_id: t.string,
      type: t.enum('individual', 'business'),
      account_type: t.enum(accountType),
      account_details: t.object(details),
      metadata: t.object({}),
      created_ts: t.string,
      updated_ts: t.string,
    },
    ['id', 'user_id'],
  );

/** A WIRE recipient as the partner answers it (evidence §4). */
export const wireShape = recipientShape('WIRE', {
  routing_number: t.string,
  account_number: t.string,
  bank_name: t.string,
  bank_address: t.object({ street_name: t.string, city: t.string, country: t.string }),
});

export const RECIPIENTS_PROBES: ConformanceProbe[] = [
  {
    id: 'recipients.create.wire',
    area: 'recipients',
    behaviour:
      'POST /v1/recipients with WIRE data under account answers 201 with recipient_id, account_type and account_details',
    sources: [contract('§2.3'), evidence('[T2s Recipients.cs]'), evidence('[D get-a-recipient]')],
    writes: true,
    needs: ['user'],
    creates: 'recipient',
    cleanup:
      'none possible (DELETE is not a route, evidence [T3r DRIFT-39]); tagged metadata.conformance_run',
    request: postRecipient((userId, runId) => fixtureRecipient(userId, runId)),
    expect: { status: 201, shape: wireShape },
  },
  {
    id: 'recipients.create.wallet',
    area: 'recipients',
    behaviour:
      'POST /v1/recipients for WALLET (address, network, token) without a top-level type answers 201, read back as individual',
    sources: [contract('§2.3'), evidence('[T2s Enums.cs]'), evidence('[T2s Recipients.cs]')],
    writes: true,
    needs: ['user'],
    creates: 'recipient',
    cleanup: 'none possible (no DELETE); tagged metadata.conformance_run',
    request: postRecipient((userId, runId) => ({
      user_id: userId,
      first_name: 'Wallet',
      last_name: 'Probe',
      account: walletAccount(),
      metadata: { conformance_run: runId },
    })),
    expect: {
      status: 201,
      shape: recipientShape('WALLET', { token: t.string, network: t.string, address: t.string }),
    },
    verify: (o) =>
      (o.body as { type?: unknown }).type === 'individual'
        ? []
        : ['body.type: expected "individual" by default, got another'],
  },
  {
    id: 'recipients.create.flat-body',
    area: 'recipients',
    behaviour: 'The old flat recipient body (rail fields at the top) answers 400 "account: Required"',
    sources: [evidence('[T2s Recipients.cs]'), evidence('[D create-a-recipient]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: postRecipient((userId) => ({
      user_id: userId,
      first_name: 'Flat',
      last_name: 'Body',
      ...wireAccount(),
    })),
    expect: { status: 400, shape: zodError },
    verify: namesPath('account'),
  },
  {
    id: 'recipients.create.wire-required',
    area: 'recipients',
    behaviour: 'A WIRE recipient without routing_number is refused, the Zod body naming the field',
    sources: [evidence('[T2s Recipients.cs]'), evidence('[D create-a-recipient]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: async (ctx) => {
      const account: Record<string, unknown> = wireAccount();
      delete account.routing_number;
      return {
        method: 'POST',
        path: '/v1/recipients',
        idempotencyKey: 'fresh',
        body: fixtureRecipient((await ctx.user()).id, ctx.runId, account),
      };
    },
    expect: { status: 400, shape: zodError },
    verify: namesPath('account.routing_number'),
  },
  {
    id: 'recipients.create.act-not-an-account-type',
    area: 'recipients',
    behaviour:
      'account_type ACT is refused (400 naming account.account_type): ACT is a bank of the partner, reached by a WIRE payout from an account at it',
    sources: [
      evidence('[T2s Enums.cs]'),
      evidence('[T1 REVISION-DOCS §4]'),
      evidence('[D known-limitations]'),
    ],
    writes: true,
    needs: ['user'],
    // Named in the report should the partner create one after all.
    creates: 'recipient',
    cleanup: 'nothing is created (refused)',
    request: postRecipient((userId, runId) =>
      fixtureRecipient(userId, runId, { ...wireAccount(), account_type: 'ACT' }),
    ),
    expect: { status: 400, shape: zodError },
    verify: namesPath('account.account_type'),
  },
  {
    id: 'recipients.create.swift-phone',
    area: 'recipients',
    behaviour: 'A SWIFT recipient needs a top-level phone: without it 400 naming phone',
    sources: [evidence('[T3r DRIFT-29]'), evidence('[D create-a-recipient]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: postRecipient((userId, runId) => fixtureRecipient(userId, runId, swiftAccount())),
    expect: { status: 400, shape: zodError },
    verify: namesPath('phone'),
  },
  {
    id: 'recipients.create.alpha3-country',
    area: 'recipients',
    behaviour: 'Recipients take alpha-2 countries: address.country USA answers 400',
    sources: [evidence('[T3r DRIFT-26]')],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: postRecipient((userId, runId) => ({
      ...fixtureRecipient(userId, runId),
      address: { ...recipientAddress(), country: 'USA' },
    })),
    expect: { status: 400, shape: zodError },
    verify: namesPath('address.country'),
  },
  {
    id: 'recipients.create.missing-key',
    area: 'recipients',
    behaviour:
      'POST /v1/recipients without an Idempotency-Key answers 400 in the Zod shape: path idempotency-key, "Required"',
    sources: [
      evidence('[T3r DRIFT-36]'),
      evidence('§11 N30 [T3raw recipients/09-fail-400-idem-omit.json]'),
      contract('§4.7'),
    ],
    writes: true,
    needs: ['user'],
    cleanup: 'nothing is created (refused)',
    request: postRecipient((userId, runId) => fixtureRecipient(userId, runId), false),
    expect: { status: 400, shape: zodError },
    verify: hasDetail('idempotency-key', 'Required'),
  },
  {
    id: 'recipients.idempotent-replay',
    area: 'recipients',
    behaviour:
      'The same Idempotency-Key with the same body answers 201 with the original recipient_id, creating nothing',
    sources: [evidence('[T3r DRIFT-34]')],
    knownConflict:
      'provider facts and T1 expect 202 "already existed" [T1 KiraApiClient], never observed: 202 passes too',
    writes: true,
    needs: ['recipient'],
    request: async (ctx) => {
      const r = await ctx.recipient();
      return { method: 'POST', path: '/v1/recipients', idempotencyKey: r.idempotencyKey, body: r.body };
    },
    expect: { status: [201, 202], shape: wireShape },
    verify: async (observed, ctx) => {
      const id = (observed.body as { recipient_id: string }).recipient_id;
      return id === (await ctx.recipient()).id
        ? []
        : ['body.recipient_id: expected the original id, got another'];
    },
  },
  {
    id: 'recipients.idempotency-conflict',
    area: 'recipients',
    behaviour:
      'The same Idempotency-Key with another body answers 409 { error: { code: IDEMPOTENCY_CONFLICT } }',
    sources: [evidence('[T3r DRIFT-35]')],
    writes: true,
    needs: ['recipient'],
    cleanup: 'nothing is created (refused)',
    request: async (ctx) => {
      const r = await ctx.recipient();
      return {
        method: 'POST',
        path: '/v1/recipients',
        idempotencyKey: r.idempotencyKey,
        body: { ...r.body, first_name: 'Another' },
      };
    },
    expect: { status: 409, shape: typedError('IDEMPOTENCY_CONFLICT') },
  },
];
