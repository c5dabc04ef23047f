import type { PartnerSandbox } from '@partner-payments/testing';
import type { DatabaseKind } from '../../apps/reference-app/src/database/database-url.util';
import { startTestSandbox } from './app.fixture';
import { AppProcess, buildReferenceApp } from './app-process.fixture';
import { databaseUrlFor } from './test-database.fixture';

export interface AppProcessSuite {
  readonly sandbox: PartnerSandbox;
  readonly app: AppProcess;
  readonly databaseUrl: string;
}

/**
 * For a describe block: builds the app, starts a sandbox and the app on a fresh database of `kind`
 * before its tests, stops both and removes the database's files after them.
 */
export function appProcessPerSuite(
  kind: DatabaseKind,
  prefix: string,
  env: Record<string, string> = {},
): AppProcessSuite {
  const suite = {} as { sandbox: PartnerSandbox; app: AppProcess; databaseUrl: string };
  let cleanup: (() => void) | undefined;
  beforeAll(async () => {
    await buildReferenceApp();
    suite.sandbox = await startTestSandbox();
    const db = await databaseUrlFor(kind, prefix);
    cleanup = db.cleanup;
    suite.databaseUrl = db.url;
    suite.app = await AppProcess.start({ databaseUrl: db.url, sandbox: suite.sandbox, env });
  }, 240_000);
  afterAll(async () => {
    await suite.app?.stop();
    await suite.sandbox?.close();
    cleanup?.();
  });
  return suite;
}
