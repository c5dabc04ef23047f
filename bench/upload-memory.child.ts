/**
 * One upload in a fresh process (spawned by upload-memory.bench.ts), so memory left over by an
 * earlier variant never inflates this one's baseline. Prints one JSON line on stdout.
 * argv: <variant path|buffer> <sampling as-is|live> <baseUrl> <rfiId> <itemId> <filePath>
 */
import { readFile } from 'node:fs/promises';
import type { UploadSource } from '@partner-payments/nestjs';
import { sampleDuring } from './lib/memory.sampler';
import { sandboxClient } from './lib/partner.client';

async function main(): Promise<void> {
  const [variant, sampling, baseUrl, rfiId, itemId, filePath] = process.argv.slice(2);
  const client = sandboxClient(baseUrl, { rateLimit: false, maxRetries: 0 });
  await client.auth.getToken(); // outside the window: we measure the upload, not the sign-in
  const run = await sampleDuring(
    async () => {
      // The control reads the whole file first, as a caller without path support would.
      const source: UploadSource =
        variant === 'path'
          ? { path: filePath }
          : { buffer: await readFile(filePath), fileName: 'big.pdf', contentType: 'application/pdf' };
      const item = await client.rfis.uploadDocuments(rfiId, itemId, [source]);
      const doc = item.documents[item.documents.length - 1];
      return { sizeBytes: doc?.size_bytes ?? null, checksum: doc?.checksum ?? null };
    },
    5,
    sampling === 'live',
  );
  process.stdout.write(`${JSON.stringify({ variant, sampling, ...run })}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`upload-memory child failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
