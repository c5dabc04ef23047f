/**
 * The kit against a deliberately divergent stand-in: a proxy to the
 * sandbox that answers three behaviours the old way and one the way the partner's gateway does
 * against the contract. Exactly those probes diverge, each with a readable explanation of which
 * side the kit believes; and the report never carries a secret.
 */
import {
  renderReport,
  reportJson,
  runConformance,
  probeShape as t,
  type ConformanceReport,
  type PartnerSandbox,
} from '@partner-payments/testing';
import { idsWith, runAgainst, startPinnedSandbox } from './conformance.fixture';
import { fixtureUser } from '../../libs/partner-payments-testing/src/conformance/probe-bodies.util';
import { PLANTED, plantedOnly, startDivergentStandIn, type StandIn } from './divergent-stand-in.fixture';

describe('conformance kit against a divergent stand-in', () => {
  let sandbox: PartnerSandbox;
  let standIn: StandIn;
  let report: ConformanceReport;
  beforeAll(async () => {
    sandbox = await startPinnedSandbox();
    standIn = await startDivergentStandIn(sandbox.sandboxBaseUrl);
    // The delivery probes have their own suite (conformance-webhooks.e2e-spec.ts): behind this
    // proxy the sandbox's at-once delivery can overtake the proxied answer.
    report = await runAgainst(sandbox, standIn.baseUrl, { skip: ['webhooks.'] });
  });
  afterAll(async () => {
    await standIn.close();
    await sandbox.close();
  });

  it('exactly the four planted behaviours diverge; everything else matches', () => {
    expect(plantedOnly(idsWith(report, 'diverge'))).toEqual(PLANTED);
    expect(idsWith(report, 'error')).toEqual([]);
    expect(idsWith(report, 'skipped')).toEqual([]);
    expect(report.ok).toBe(false);
  });

  it('each divergence names the differing fields and the side the kit believes', () => {
    const byId = Object.fromEntries(report.results.map((r) => [r.id, r]));
    expect(byId['users.create'].differences).toEqual([
      'body.id: expected string, got absent',
      'body.user_id: expected absent, present (string)',
    ]);
    expect(byId['users.create'].explanation).toContain(
      'The kit believes the evidence [T2s Users.cs] (the kira-sdk checked against the partner sandbox, Jul 2026)',
    );
    expect(byId['users.create'].explanation).toContain('This is a simulator: the simulator is wrong');
    expect(report.target).toBe('simulator');
    expect(byId['users.no-instant-verification'].differences).toEqual([
      'body.status: expected REVIEW, got "VERIFIED"',
    ]);
    expect(byId['recipients.idempotency-conflict'].differences[0]).toBe('status: expected 409, got 201');
    expect(byId['users.no-instant-verification'].request).toBe('GET /v1/users/{id}');
    expect(byId['recipients.idempotency-conflict'].source).toBe('evidence [T3r DRIFT-35]');

    const text = renderReport(report);
    expect(text).toMatch(/users\.create\s+201 \{ id: string.*DIVERGE\s+evidence \[T2s Users\.cs\]/);
    expect(text).toContain(
      'DIVERGE recipients.idempotency-conflict: The same Idempotency-Key with another body answers 409',
    );
    expect(text).toContain(`${idsWith(report, 'diverge').length} diverge`);
    expect(text).toContain('  request: POST /v1/recipients\n  source: evidence [T3r DRIFT-35]');
    expect(text).toContain('RESULT: DIVERGES (exit code 1)');
  });

  it('the planted gateway 401 is explained by the contract, as a known conflict', () => {
    const missingBearer = report.results.find((r) => r.id === 'gateway.missing-bearer');
    expect(missingBearer?.differences).toEqual(['body.code: expected unauthorized, got absent']);
    expect(missingBearer?.observedMessage).toBe('Unauthorized');
    expect(missingBearer?.explanation).toBe(
      "The kit believes the contract (docs/partner-api.md §5.4, §5.7), which wins over every observation. Known conflict, not a change: the partner's gateway answers 401 { message: 'Unauthorized' } without code [T3r DRIFT-12]; CONTRACT WINS. This is a simulator: the simulator is wrong (fix it, or the probe if the documents changed).",
    );
  });

  it('a divergence from a contract-backed probe says the contract wins and names a known conflict', async () => {
    const contractReport = await runConformance({
      baseUrl: standIn.baseUrl,
      credentials: sandbox.credentials,
      probes: [
        {
          id: 'test.contract',
          area: 'gateway',
          behaviour: 'a contract probe the stand-in fails',
          sources: [{ kind: 'contract', ref: '§5.7' }],
          knownConflict: 'the gateway was seen answering { message } only',
          writes: false,
          request: { method: 'GET', path: '/v1/users?limit=1', auth: 'api-key-only' },
          expect: { status: 200, shape: t.object({}) },
        },
      ],
    });
    const explanation = contractReport.results[0].explanation ?? '';
    expect(explanation).toContain(
      'The kit believes the contract (docs/partner-api.md §5.7), which wins over every observation.',
    );
    expect(explanation).toContain(
      'Known conflict, not a change: the gateway was seen answering { message } only',
    );
    expect(explanation).toContain('This is a simulator: the simulator is wrong');
  });

  it('names a resource made by a request the documents say is refused (the partner changed)', async () => {
    const surprise = await runConformance({
      baseUrl: standIn.baseUrl,
      credentials: sandbox.credentials,
      allowWrites: true,
      probes: [
        {
          id: 'test.refused-create',
          area: 'users',
          behaviour: 'a complete user the probe expects to be refused',
          sources: [{ kind: 'evidence', ref: '[T3r DRIFT-22]' }],
          writes: true,
          request: (ctx) => ({
            method: 'POST',
            path: '/v1/users',
            idempotencyKey: 'fresh',
            body: fixtureUser(ctx.runId),
          }),
          expect: { status: 400, shape: t.object({}) },
        },
      ],
    });
    expect(surprise.results[0].outcome).toBe('diverge');
    // The stand-in answers the old `user_id`: the id is found there too.
    expect(surprise.created).toEqual([
      {
        kind: 'unexpected',
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        probe: 'test.refused-create',
        cleanup: 'made by a request the documents say is refused: check and remove it by hand',
      },
    ]);
    expect(renderReport(surprise)).toContain(
      `unexpected ${surprise.created[0].id} (probe test.refused-create)`,
    );
  });

  it('never sends the credentials to a link on another origin', async () => {
    const logged = (await sandbox.control.requestLog()).length;
    const linked = await runConformance({
      baseUrl: standIn.baseUrl,
      credentials: sandbox.credentials,
      probes: [
        {
          id: 'test.foreign-link',
          area: 'rfis',
          behaviour: 'a link on another host, sent with the default credentials',
          sources: [{ kind: 'evidence', ref: '[T1 KiraApiClient]' }],
          writes: false,
          request: { method: 'GET', path: '(download_url)', url: `${sandbox.baseUrl}/v1/users` },
          expect: { status: 200, shape: t.object({}) },
        },
      ],
    });
    expect(linked.results[0].outcome).toBe('error');
    expect(linked.results[0].differences[0]).toContain(
      "partner credentials go only to the base URL's origin",
    );
    // Only what this run sent (the other-stage probes of earlier runs reach the root on purpose).
    const log = (await sandbox.control.requestLog()).slice(logged);
    expect(log.some((entry) => entry.path === '/v1/users' && entry.method === 'GET')).toBe(false);
  });

  it('redacts the api key, the password, bearer tokens and account numbers from both reports', async () => {
    const secrets = await runConformance({
      baseUrl: standIn.baseUrl,
      credentials: sandbox.credentials,
      probes: [
        {
          id: 'test.echo-secrets',
          area: 'gateway',
          behaviour: 'an error message that carries the caller secrets',
          sources: [{ kind: 'evidence', ref: '[T3r DRIFT-6]' }],
          writes: false,
          request: { method: 'GET', path: '/v1/echo-secrets' },
          expect: {
            status: 200,
            shape: t.object({
              account_number: t.enum('masked'),
              recipient: t.object({ account_number: t.integer, routing_number: t.integer }),
            }),
          },
        },
      ],
    });
    const outputs = [renderReport(secrets), reportJson(secrets), renderReport(report), reportJson(report)];
    const result = secrets.results[0];
    expect(result.observedMessage).toBe(
      'rejected Bearer [redacted] with key [redacted] for account ****3456 and IBAN ****1332',
    );
    // Differences name the fields and describe values by type and length, never print them.
    expect(result.differences).toEqual([
      'status: expected 200, got 400',
      'body.account_number: expected masked, got a string of 10 chars',
      'body.recipient.account_number: expected integer, got string',
      'body.recipient.routing_number: expected integer, got string',
    ]);
    for (const out of outputs) {
      expect(out).not.toContain(sandbox.credentials.apiKey);
      expect(out).not.toContain(sandbox.credentials.password);
      expect(out).not.toContain('ES9121000418450200051332'); // an IBAN in a body and a message
      expect(out).not.toContain('021000021'); // a routing number
      expect(out).not.toContain('4000123456'); // the recipients' account number
      expect(out).not.toContain('123456789'); // the users' SSN
      expect(out).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/); // a sandbox bearer token (a JWT)
    }
  });
});
