import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { sampleFile } from '@partner-payments/testing';
import { individual, useWorld } from './sandbox.fixture';

const V = '2026-06-01';
/** A run of dots between two `@`: what makes a backtracking email regex take quadratic time. */
const dots = (n: number) => `a@${'.'.repeat(n)}@`;

/** Milliseconds `fn` took, with its result. */
async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const out = await fn();
  return [out, performance.now() - started];
}

describe('sandbox: inputs built to stall it are answered at once', () => {
  const world = useWorld({}, 'all');

  it('POST /v1/users with an 80,000-character email: 400 Invalid email on `email`, and the sandbox stays responsive', async () => {
    const [answer, ms] = await timed(() =>
      world.api.call('POST', '/v1/users', { body: { ...individual(), email: dots(80_000) } }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([
      { path: 'email', message: 'Invalid email', code: 'invalid_string' },
    ]);
    // A generous bound: a backtracking regex holds the event loop for seconds on this body.
    expect(ms).toBeLessThan(1_500);
    const [next, nextMs] = await timed(() => world.api.call('GET', '/v1/countries'));
    expect(next.status).toBe(200);
    expect(nextMs).toBeLessThan(1_500);
    // The rule itself is unchanged: an ordinary address is still created.
    const ok = await world.api.call('POST', '/v1/users', { body: { ...individual(), email: 'a@b..c' } });
    expect(ok.status).toBe(201);
  });

  it('an email identifier answer of 80,000 dots is refused per item at once', async () => {
    const userId = (await world.api.call('POST', '/v1/users', { body: individual() })).body.id as string;
    const rfi = await world.sandbox.control.seedRfi({
      userId,
      items: [{ answer_type: 'identifier', answer_spec: { format: 'email' } }],
    });
    const [answer, ms] = await timed(() =>
      world.api.call('PATCH', `/v1/rfis/${rfi.rfiId}/items`, {
        body: { items: [{ item_id: rfi.itemIds[0], answer_value: dots(80_000) }] },
        version: V,
      }),
    );
    expect(ms).toBeLessThan(1_500);
    expect(answer.body.errors).toEqual([{ item_id: rfi.itemIds[0], message: expect.any(String) }]);
  });

  it('stores upload names without bidi controls or invisible characters (spec 2.2: the name is sanitised)', async () => {
    const userId = (await world.api.call('POST', '/v1/users', { body: individual() })).body.id as string;
    const rfi = await world.sandbox.control.seedRfi({
      userId,
      items: [{ answer_type: 'document', answer_spec: { mime_types: ['application/pdf'], max_files: 20 } }],
    });
    const names = [
      'invoice\u202efdp.exe',
      '\u2066report\u2069.pdf',
      'scan\u200b\u200d.pdf',
      '\ufeffid.pdf',
      'a\u3164b.pdf',
      'x\u061c\u200e\u200fy.pdf',
    ];
    const form = new FormData();
    for (const name of names)
      form.append(
        'files',
        new Blob([new Uint8Array(sampleFile('application/pdf'))], { type: 'application/pdf' }),
        name,
      );
    const answer = await world.api.call('POST', `/v1/rfis/${rfi.rfiId}/items/${rfi.itemIds[0]}/documents`, {
      rawBody: form,
      version: V,
    });
    expect(answer.status).toBe(201);
    expect(answer.body.item.documents.map((d: { file_name: string }) => d.file_name)).toEqual([
      'invoicefdp.exe',
      'report.pdf',
      'scan.pdf',
      'id.pdf',
      'ab.pdf',
      'xy.pdf',
    ]);
  });

  it('bodies: over 2 MiB is 413 with the connection closed; a gzip body within it is read as before', async () => {
    const headers = (extra: Record<string, string>) => ({
      'x-api-key': world.sandbox.credentials.apiKey,
      authorization: `Bearer ${world.api.token}`,
      'idempotency-key': randomUUID(),
      'content-type': 'application/json',
      ...extra,
    });
    const big = JSON.stringify({ ...individual(), occupation: 'x'.repeat(3 * 1024 * 1024) });
    const refused = await fetch(`${world.sandbox.sandboxBaseUrl}/v1/users`, {
      method: 'POST',
      headers: headers({}),
      body: big,
    });
    expect(refused.status).toBe(413);
    expect(refused.headers.get('connection')).toBe('close');
    expect(await refused.json()).toEqual({ code: 'validation_error', message: 'request entity too large' });
    const zipped = await fetch(`${world.sandbox.sandboxBaseUrl}/v1/users`, {
      method: 'POST',
      headers: headers({ 'content-encoding': 'gzip' }),
      body: gzipSync(JSON.stringify(individual())),
    });
    expect(zipped.status).toBe(201);
  });
});
