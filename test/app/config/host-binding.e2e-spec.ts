/**
 * HOST: the app binds 127.0.0.1 unless told otherwise, binds what HOST
 * says, and logs the address it really bound.
 */
import type { AddressInfo } from 'node:net';
import type { LoggerService } from '@nestjs/common';
import { startApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { databaseUrlFor } from '../../setup/test-database.fixture';
import { startTestSandbox, partnerEnv } from '../../setup/app.fixture';

jest.setTimeout(60_000);

describe('HOST', () => {
  it.each([
    [undefined, '127.0.0.1'],
    ['0.0.0.0', '0.0.0.0'],
  ])('HOST=%s binds %s and the log names it', async (host, expected) => {
    const sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'host');
    const lines: string[] = [];
    const logger: LoggerService = {
      log: (m: unknown) => void lines.push(String(m)),
      warn: () => undefined,
      error: () => undefined,
    };
    const running = await startApp({
      env: { PORT: '0', DATABASE_URL: db.url, DEMO: 'false', HOST: host, ...partnerEnv(sandbox) },
      envFile: false,
      logger,
    });
    try {
      const bound = running.app.getHttpServer().address() as AddressInfo;
      expect(bound.address).toBe(expected);
      expect(lines.find((l) => l.startsWith('listening on'))).toContain(`${expected}:${bound.port}`);
      const health = await fetch(`${running.url}/health/live`);
      expect(health.status).toBeLessThan(600);
    } finally {
      await running.close();
      await sandbox.close();
      db.cleanup();
    }
  });
});
