/** Reference data (evidence §8), client configuration (spec 2.4, 4.5) and versioning (spec 9, evidence §1). */
import { randomUUID } from 'node:crypto';
import { ProbeSkipped } from '../conformance-context.service';
import type { ConformanceProbe, ProbeContext } from '../probe.types';
import { t } from '../shape.util';
import { anyError, contract, evidence, namesPath, zodError } from './probe-shapes.util';

/** Versions the documents name (spec 9.1); the kit pins nothing else. */
const DOCUMENTED_VERSIONS = ['2026-04-14', '2026-06-01'];

/**
 * The version the account is pinned to, as echoed when no header is sent (evidence §1). Only a
 * documented version is re-sent: upgrading an account that is not pinned yet is the owner's call.
 */
async function pinnedVersion(ctx: ProbeContext): Promise<string> {
  const answer = await ctx.send({ method: 'GET', path: '/v1/users?limit=1' });
  const version = answer.headers.get('x-api-version');
  if (!version || !DOCUMENTED_VERSIONS.includes(version)) {
    throw new ProbeSkipped(
      `the account resolves to ${version ?? 'no echoed version'}, not a documented pin (${DOCUMENTED_VERSIONS.join(', ')}): the kit does not pin accounts`,
    );
  }
  return version;
}

export const REFERENCE_PROBES: ConformanceProbe[] = [
  {
    id: 'reference-data.countries',
    area: 'reference-data',
    behaviour:
      'GET /v1/countries answers { count, data: [{ alpha3, name, subdivisions: [{ code, name }] }] }',
    sources: [evidence('[T2s Reference.cs]'), evidence('[T3r §RefData]')],
    writes: false,
    request: { method: 'GET', path: '/v1/countries' },
    expect: {
      status: 200,
      shape: t.object({
        count: t.integer,
        data: t.array(
          t.object(
            {
              alpha3: t.string,
              name: t.string,
              subdivisions: t.array(t.object({ code: t.string, name: t.string })),
            },
            ['code'],
          ),
        ),
      }),
    },
    sandbox:
      'names from ICU and ISO 3166-2 subdivision codes are ours; only US, CA, MX, CO carry subdivisions',
  },
  {
    id: 'reference-data.country-list-unpaged',
    area: 'reference-data',
    behaviour:
      'GET /v1/countries?limit=1&offset=99999 ignores paging: the whole list (data.length = count), each row with postal_code_format (a string or null)',
    sources: [evidence('§11 N37 [T3raw countries/06, 07]')],
    writes: false,
    request: { method: 'GET', path: '/v1/countries?limit=1&offset=99999' },
    expect: {
      status: 200,
      shape: t.object({
        count: t.integer,
        data: t.array(t.object({ alpha3: t.string, postal_code_format: t.nullable(t.string) })),
      }),
    },
    verify: (o) => {
      const b = o.body as { count: number; data: unknown[] };
      return b.data.length === b.count && b.count > 1
        ? []
        : [`body: expected the whole list (data.length = count > 1), got ${b.data.length} of ${b.count}`];
    },
    sandbox: 'postal_code_format is ours for US, CA, MX, CO, BR, DE, ES, FR and null for the others',
  },
  {
    id: 'reference-data.banks',
    area: 'reference-data',
    behaviour: 'GET /v1/banks?country_code=CO answers { banks: [{ code, name }], total, country_code }',
    sources: [evidence('[T3r DRIFT-7, 8, 9]')],
    writes: false,
    request: { method: 'GET', path: '/v1/banks?country_code=CO' },
    expect: {
      status: 200,
      shape: t.object({
        banks: t.array(t.object({ code: t.string, name: t.string })),
        total: t.integer,
        country_code: t.string,
      }),
    },
    sandbox: "a short list of Colombian banks, not the partner's 28",
  },
  {
    id: 'reference-data.banks.other-country',
    area: 'reference-data',
    behaviour: 'GET /v1/banks for any country but CO answers 400 "Only CO (Colombia) is supported"',
    sources: [evidence('[T3r DRIFT-8, 9]')],
    writes: false,
    request: { method: 'GET', path: '/v1/banks?country_code=MX' },
    expect: { status: 400, shape: zodError },
    verify: namesPath('country_code'),
  },
  {
    id: 'reference-data.banks.wrong-param',
    area: 'reference-data',
    behaviour: 'GET /v1/banks?country=CO (not country_code) answers 400 naming country_code',
    sources: [evidence('[T3r DRIFT-8, 9]')],
    writes: false,
    request: { method: 'GET', path: '/v1/banks?country=CO' },
    expect: { status: 400, shape: zodError },
    verify: namesPath('country_code'),
  },
  {
    id: 'clients.get',
    area: 'clients',
    behaviour:
      "GET /v1/clients/{client_uuid} answers the caller's configuration { success, data: { client, client_wallets, client_vault, authorizedBanks } }",
    sources: [contract('§2.4, §4.5'), evidence('§8 (path from provider facts)')],
    writes: false,
    needs: ['clientUuid'],
    request: async (ctx) => ({ method: 'GET', path: `/v1/clients/${await ctx.clientUuid()}` }),
    expect: {
      status: 200,
      shape: t.object({
        success: t.boolean,
        data: t.object({
          client: t.object({
            id: t.integer,
            client_uuid: t.string,
            company_name: t.string,
            pct_fee: t.string,
            fixed_fee: t.string,
            usd_usdc_fee: t.nullable(t.string),
            logo_url: t.string,
            created_ts: t.string,
            updated_ts: t.string,
          }),
          client_wallets: t.nullable(t.object({})),
          client_vault: t.nullable(t.object({})),
          authorizedBanks: t.array(t.string),
        }),
      }),
    },
  },
  {
    id: 'clients.get.malformed',
    area: 'clients',
    behaviour: 'The client configuration with a malformed UUID answers 400',
    sources: [contract('§4.5')],
    writes: false,
    request: { method: 'GET', path: '/v1/clients/not-a-uuid' },
    expect: { status: 400, shape: anyError },
  },
  {
    id: 'clients.get.other',
    area: 'clients',
    behaviour:
      "The client configuration of a UUID that is not the caller's answers 403 (or 404 when no such client)",
    sources: [contract('§4.5')],
    writes: false,
    request: () => ({ method: 'GET', path: `/v1/clients/${randomUUID()}` }),
    expect: { status: [403, 404], shape: anyError },
  },
  {
    id: 'versioning.echo',
    area: 'versioning',
    behaviour: 'X-Api-Version is echoed in the x-api-version answer header',
    sources: [evidence('[T3r DRIFT-11]')],
    writes: false,
    request: { method: 'GET', path: '/v1/users?limit=1', version: '2026-04-14' },
    expect: { status: 200, shape: t.object({ data: t.array(t.any) }), headers: ['x-api-version'] },
    verify: (o) =>
      o.headers.get('x-api-version') === '2026-04-14'
        ? []
        : ['header x-api-version: expected the version sent, got another'],
  },
  {
    id: 'versioning.unknown-accepted',
    area: 'versioning',
    behaviour: 'An unknown but well-formed version (2025-01-01) is accepted silently with the same body',
    sources: [evidence('[T3r DRIFT-11]')],
    writes: false,
    request: { method: 'GET', path: '/v1/users?limit=1', version: '2025-01-01' },
    expect: { status: 200, shape: t.object({ data: t.array(t.any), pagination: t.object({}) }) },
  },
  {
    id: 'versioning.upgrade-repeat',
    area: 'versioning',
    behaviour:
      'POST /v1/versioning/upgrade to the version already in force answers 200 { previous_version, current_version } and changes nothing',
    sources: [evidence('§11 N6 [T3raw versioning/01]'), evidence('[T3r DRIFT-1]'), contract('§9.3')],
    writes: true,
    cleanup:
      'nothing to clean: the target is the version already in force, a no-op (the pin only moves forward)',
    request: async (ctx) => ({
      method: 'POST',
      path: '/v1/versioning/upgrade',
      body: { target_version: await pinnedVersion(ctx) },
    }),
    expect: {
      status: 200,
      shape: t.object({ previous_version: t.string, current_version: t.string }),
      headers: ['x-api-version'], // evidence §11 N5: the upgrade's answer carries it too
    },
    verify: (o) => {
      const b = o.body as { previous_version: string; current_version: string };
      return b.previous_version === b.current_version
        ? []
        : ['body: expected previous_version = current_version (a no-op), they differ'];
    },
    sandbox:
      'an account started without `pinnedVersion` resolves to an older baseline (`2025-09-01`): the probe is skipped there',
  },
];
