/**
 * One upload in a fresh process (spawned by upload.bench.ts), so memory left by an earlier run never
 * inflates this one's baseline. Prints one JSON line on stdout: the sampled run and the bytes the
 * server read. argv: <client|raw> <serverUrl> <file>...
 *  - client: the library's own upload path: prepareUploadFiles (checks, opens every path as a
 *    stream) and appendUploadParts into one multipart call through client.http (retries, headers,
 *    token), exactly what rfis.uploadDocuments does, with the per-call total raised from the
 *    provider-facts 100 MB to the 20 × 30 MB the row asks for;
 *  - raw: the same files piped one after another as one raw request body (the floor).
 */
import { createReadStream } from 'node:fs';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import FormData from 'form-data';
import {
  appendUploadParts,
  uploadPartsReplayable,
} from '../libs/partner-payments/src/resources/rfis/upload/upload-form.util';
import { MAX_UPLOAD_FILE_BYTES as FILE_BYTES } from '../libs/partner-payments/src/resources/rfis/upload/upload.constants';
import { prepareUploadFiles } from '../libs/partner-payments/src/resources/rfis/upload/upload.rules';
import { sampleDuring } from './lib/memory-sampler.fixture';
import { sandboxClient } from './lib/partner.client';

async function viaClient(url: string, files: string[]): Promise<() => Promise<number>> {
  const client = sandboxClient(url, { rateLimit: false, maxRetries: 0 });
  await client.auth.getToken(); // outside the window: the upload is measured, not the sign-in
  return async () => {
    const parts = await prepareUploadFiles(
      files.map((path) => ({ path })),
      undefined,
      { maxTotalBytes: files.length * FILE_BYTES },
    );
    const res = await client.http.request<{ item: { documents: Array<{ size_bytes: number }> } }>({
      method: 'POST',
      path: '/v1/rfis/rfi_bench/items/item_bench/documents',
      area: 'rfis',
      multipart: () => appendUploadParts(new FormData(), parts),
      bodyReplayable: uploadPartsReplayable(parts),
    });
    return res.data.item.documents[0].size_bytes;
  };
}

function viaRawStream(url: string, files: string[]): () => Promise<number> {
  return async () => {
    const req = request(`${url}/sink`, {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': files.length * FILE_BYTES,
      },
    });
    const answer = new Promise<number>((resolve, reject) => {
      req.once('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve((JSON.parse(text) as { bytes: number }).bytes));
      });
      req.once('error', reject);
    });
    const body = Readable.from(
      (async function* () {
        for (const f of files) yield* createReadStream(f);
      })(),
    );
    await pipeline(body, req);
    return answer;
  };
}

async function main(): Promise<void> {
  const [variant, url, ...files] = process.argv.slice(2);
  const work = variant === 'client' ? await viaClient(url, files) : viaRawStream(url, files);
  const run = await sampleDuring(work, 5, false);
  process.stdout.write(`${JSON.stringify({ variant, ...run })}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`upload child failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
