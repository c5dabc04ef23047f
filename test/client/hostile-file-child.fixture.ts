/**
 * Child process of hostile-files.e2e-spec.ts: one crafted file through the three upload sources of
 * the client and through the sandbox's upload route, each outcome printed as a JSON line. A file
 * that hangs its parser starves the event loop (a chain of microtasks, no timer fires), so only a
 * parent process can time it out: the spec kills this process past its deadline.
 */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createPartnerPaymentsClient, PartnerLocalValidationError } from '@partner-payments/nestjs';
import { startWorld, stopWorld } from '../sandbox/sandbox.fixture';

/** The ASF header GUID, then zeros: its first sub-object declares size 0 (CVE-2026-31808). */
export function craftedAsf(): Buffer {
  const bytes = Buffer.alloc(4100);
  Buffer.from('3026B2758E66CF11A6D900AA0062CE6C', 'hex').copy(bytes, 0);
  return bytes;
}

function report(entry: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(entry)}\n`);
}

async function main(): Promise<void> {
  const world = await startWorld({ quiet: true, verificationDelayMs: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'hostile-file-'));
  try {
    const userId = (
      await world.api.call('POST', '/v1/users', {
        body: { type: 'business', business_legal_name: 'Acme', source_of_funds: 'x' },
      })
    ).body.id;
    const rfi = await world.sandbox.control.seedRfi({
      userId,
      items: [{ answer_type: 'document', answer_spec: { mime_types: ['application/pdf'], max_files: 3 } }],
    });
    const client = createPartnerPaymentsClient({
      environment: 'sandbox',
      baseUrl: world.sandbox.baseUrl,
      apiKey: world.sandbox.credentials.apiKey,
      clientId: world.sandbox.credentials.clientId,
      password: world.sandbox.credentials.password,
      clientUuid: world.sandbox.credentials.clientUuid,
      logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const path = join(dir, 'statement.pdf');
    writeFileSync(path, craftedAsf());
    const sources = {
      buffer: { buffer: craftedAsf(), fileName: 'statement.pdf', contentType: 'application/pdf' },
      path: { path, contentType: 'application/pdf' },
      stream: {
        stream: Readable.from([craftedAsf()]),
        fileName: 'statement.pdf',
        contentType: 'application/pdf',
      },
    };
    for (const [kind, source] of Object.entries(sources)) {
      const started = Date.now();
      const outcome = await client.rfis.uploadDocuments(rfi.rfiId, rfi.itemIds[0], [source]).then(
        () => ({ error: undefined, fields: [] as string[] }),
        (error: unknown) => ({
          error: (error as Error).constructor.name,
          local: error instanceof PartnerLocalValidationError,
          fields: error instanceof PartnerLocalValidationError ? error.fieldErrors.map((f) => f.field) : [],
        }),
      );
      report({ kind, ms: Date.now() - started, ...outcome });
    }
    const uploadsSent = (await world.sandbox.control.requestLog()).filter(
      (e) => e.method === 'POST' && e.path.endsWith('/documents'),
    ).length;
    report({ kind: 'client-sent', uploadsSent });
    const form = new FormData();
    form.append(
      'files',
      new Blob([new Uint8Array(craftedAsf())], { type: 'application/pdf' }),
      'statement.pdf',
    );
    const started = Date.now();
    const answer = await world.api.call('POST', `/v1/rfis/${rfi.rfiId}/items/${rfi.itemIds[0]}/documents`, {
      rawBody: form,
      version: '2026-06-01',
    });
    const control = await fetch(`${world.sandbox.baseUrl}/__control/counters`).then(
      (r) => r.status,
      () => 0,
    );
    const item = (await world.api.call('GET', `/v1/rfis/${rfi.rfiId}`, { version: '2026-06-01' })).body
      .items[0];
    report({
      kind: 'sandbox-route',
      ms: Date.now() - started,
      status: answer.status,
      controlStatus: control,
      storedDocuments: item.documents.length,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await stopWorld(world);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  },
);
