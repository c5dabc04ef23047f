/**
 * Inputs built to hang, stall or rewind a process, against the module's client, the sandbox and
 * the reference app's webhook route, each over a real socket (SQLite). Every input is judged from
 * what was observed (the answer, the time it took, what the server read, whether the connection
 * or stream ended) and counted in one reliability tally row per group.
 */
import type { PartnerPaymentsClient } from '@partner-payments/nestjs';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../apps/reference-app/src/app-bootstrap.util';
import { partnerClientGraphFor } from '../setup/funded-account.fixture';
import { startTestApp, startTestSandbox } from '../setup/app.fixture';
import { databaseUrlFor } from '../setup/test-database.fixture';
import { AttackTally, sendEndlessBody, ServerReadCounter } from './attack-inputs.fixture';

jest.setTimeout(120_000);

const WEBHOOK_LIMIT = 1_048_576; // the module's default webhooks.maxBodyBytes

describe('attack inputs (sqlite)', () => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let _client: PartnerPaymentsClient;
  const tally = new AttackTally();

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'attacks');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox);
    _client = partnerClientGraphFor(sandbox).client;
  });
  afterAll(async () => {
    tally.record('sqlite');
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  describe('endless webhook bodies: 413, the connection closed, a bounded read', () => {
    const unsigned = 'ab'.repeat(32);
    it.each([
      ['chunked text/plain', 'text/plain', undefined],
      ['chunked application/json', 'application/json', undefined],
      ['chunked octet-stream', 'application/octet-stream', undefined],
      ['declared 10 GB, sent without end', 'application/json', 10 * 1024 ** 3],
    ])('%s', async (_label, contentType, declared) => {
      const counter = new ServerReadCounter(running.app.getHttpServer());
      const before = counter.bytesRead();
      const out = await sendEndlessBody(
        `${running.url}/webhooks/partner`,
        { 'content-type': contentType, 'x-signature-sha256': unsigned },
        15_000,
        declared,
      );
      const read = counter.bytesRead() - before;
      const right = tally.count(
        'endless webhook body',
        out.status === 413 &&
          out.closedAfterMs !== null &&
          out.closedAfterMs < 10_000 &&
          read < 10 * WEBHOOK_LIMIT,
      );
      expect({ status: out.status, connection: out.connection, closed: out.closedAfterMs !== null }).toEqual({
        status: 413,
        connection: 'close',
        closed: true,
      });
      expect(out.closedAfterMs).toBeLessThan(10_000);
      expect(read).toBeLessThan(10 * WEBHOOK_LIMIT);
      expect(right).toBe(true);
    });
  });
});
