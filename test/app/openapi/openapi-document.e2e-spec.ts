/**
 * GET /openapi.json: behind the operator token, equal to the checked-in
 * apps/reference-app/openapi.json (`npm run openapi` writes it), a valid OpenAPI 3.1 document, and
 * complete: every route Express serves is in it, described (summary, tag, a 2xx answer), with the
 * security AccessGuard really applies (checked by calling each route without credentials).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { PartnerSandbox } from '@partner-payments/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import {
  TEST_AUTH_HEADERS,
  TEST_OPERATOR_TOKEN,
  startTestApp,
  startTestSandbox,
} from '../../setup/app.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

const CHECKED_IN = join(__dirname, '../../../apps/reference-app/openapi.json');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
  tags: Array<{ name: string; description?: string }>;
};
type Operation = {
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { description?: string; content?: Record<string, unknown> }>;
};

/** Every operation of the document as `METHOD /path`, with its operation. */
function operations(document: Document): Map<string, Operation> {
  const found = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths))
    for (const method of METHODS)
      if (item[method]) found.set(`${method.toUpperCase()} ${path}`, item[method]);
  return found;
}

/** What differs between two documents, by operation and schema, for the failure message. */
function differences(served: Document, file: Document): string[] {
  const a = operations(served);
  const b = operations(file);
  const keys = [...new Set([...a.keys(), ...b.keys()])];
  const ops = keys.filter((k) => !isDeepStrictEqual(a.get(k), b.get(k)));
  const names = [
    ...new Set([...Object.keys(served.components.schemas), ...Object.keys(file.components.schemas)]),
  ];
  const schemas = names.filter(
    (n) => !isDeepStrictEqual(served.components.schemas[n], file.components.schemas[n]),
  );
  const fields = [...new Set([...Object.keys(served), ...Object.keys(file)])].filter(
    (k) =>
      !['paths', 'components'].includes(k) &&
      !isDeepStrictEqual(served[k as keyof Document], file[k as keyof Document]),
  );
  return [...fields, ...ops, ...schemas.map((n) => `schema ${n}`)];
}

/** The routes Express serves, as `METHOD /path` with OpenAPI's `{param}` (Nest registers each on the app's router). */
function expressRoutes(running: RunningApp): string[] {
  const express = running.app.getHttpAdapter().getInstance() as {
    router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
  };
  return express.router.stack.flatMap(({ route }) =>
    route
      ? Object.keys(route.methods)
          .filter((m) => m !== '_all')
          .map((m) => `${m.toUpperCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
      : [],
  );
}

describe('GET /openapi.json', () => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let served: Document;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'openapi');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox);
    const res = await fetch(`${running.url}/openapi.json`, {
      headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    // Parsed here: an object from fetch's own realm never deep-equals one parsed in the test's.
    served = JSON.parse(await res.text()) as Document;
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  it('is refused without the operator token or with a wrong one (401, Bearer challenge)', async () => {
    for (const authorization of [undefined, `Bearer ${TEST_OPERATOR_TOKEN}x`]) {
      const res = await fetch(`${running.url}/openapi.json`, {
        headers: authorization ? { authorization } : {},
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(JSON.stringify(await res.json())).not.toContain('"paths"');
    }
  });

  it('equals the checked-in apps/reference-app/openapi.json', () => {
    const file = JSON.parse(readFileSync(CHECKED_IN, 'utf8')) as Document;
    if (!isDeepStrictEqual(served, file))
      throw new Error(
        `apps/reference-app/openapi.json differs from what the app serves (${differences(served, file).join(', ') || 'components'}): run npm run openapi`,
      );
  });

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator), with 3.1 null types', async () => {
    const validator = new Validator();
    const result = await validator.validate(served);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(served.openapi).toBe('3.1.0');
    // 3.0's `nullable` is not a 3.1 keyword (the validator lets unknown keywords pass): type lists instead.
    expect(JSON.stringify(served)).not.toContain('"nullable"');
    expect(JSON.stringify(served.components.schemas.PayoutAnswerDto)).toContain('["string","null"]');
  });

  it('describes every route Express serves, and nothing else', () => {
    const routes = expressRoutes(running);
    expect(routes.length).toBeGreaterThanOrEqual(20);
    // The console (console/) is an HTML page for people, left out of the API document on purpose.
    const page = routes.filter((r) => / \/console(\/|$)/.test(r));
    expect(page).toContain('GET /console');
    const api = routes.filter((r) => !page.includes(r));
    expect([...operations(served).keys()].sort()).toEqual([...new Set(api)].sort());
  });

  it('gives every operation a summary, a declared tag, a documented 2xx answer, a security requirement, and each answer a description', () => {
    const undescribed = [...operations(served)].filter(([, op]) => {
      const ok = Object.entries(op.responses).find(([status]) => /^2/.test(status));
      const unexplained = Object.values(op.responses).some((r) => !r.description);
      return !op.summary || !op.tags?.length || !ok?.[1].content || !op.security?.length || unexplained;
    });
    expect(undescribed.map(([key]) => key)).toEqual([]);
    const declared = new Set(served.tags.map((t) => t.name));
    const used = new Set([...operations(served).values()].flatMap((op) => op.tags ?? []));
    expect([...used].filter((tag) => !declared.has(tag))).toEqual([]);
    expect(served.tags.filter((t) => !t.description || !used.has(t.name))).toEqual([]);
  });

  it("states each route's access as AccessGuard applies it (each route called without credentials)", async () => {
    const wrong: string[] = [];
    for (const [key, op] of operations(served)) {
      const [method, path] = key.split(' ');
      const url = `${running.url}${path.replace(/\{\w+\}/g, randomUUID())}`;
      const res = await fetch(url, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      });
      await res.arrayBuffer();
      const scheme = Object.keys(op.security?.[0] ?? {})[0] ?? 'none';
      const challenge = res.headers.get('www-authenticate') ?? '';
      const guarded = { operator: /^Bearer /, caller: /^ApiKey /, none: /^$/ }[scheme];
      const matches =
        guarded !== undefined &&
        guarded.test(challenge) &&
        (scheme === 'none' || res.status === 401) &&
        (res.status !== 401 || op.responses['401'] !== undefined);
      if (!matches) wrong.push(`${key}: documented ${scheme}, answered ${res.status} ${challenge}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a body documented closed (additionalProperties: false) is refused 400 with a key it does not list', async () => {
    const closed = [...operations(served)].filter(([, op]) => {
      const ref = op.requestBody?.content['application/json']?.schema.$ref ?? '';
      const schema = served.components.schemas[ref.replace('#/components/schemas/', '')];
      return (schema as { additionalProperties?: unknown } | undefined)?.additionalProperties === false;
    });
    expect(closed.map(([key]) => key).sort()).toEqual(['POST /inbox/dead/retry', 'POST /payouts']);
    for (const [key] of closed) {
      const [method, path] = key.split(' ');
      const res = await fetch(`${running.url}${path}`, {
        method,
        headers: {
          ...TEST_AUTH_HEADERS,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({ not_in_the_schema: 1 }),
      });
      expect([key, res.status]).toEqual([key, 400]);
      expect(JSON.stringify(await res.json())).toContain('not_in_the_schema');
    }
  });
});
