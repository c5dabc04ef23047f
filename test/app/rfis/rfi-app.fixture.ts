/** A suite's world for the RFI feature: the sandbox sending rfi.* events, the app, one verified user. */
import { PartnerUsersService } from '@partner-payments/nestjs';
import type { PartnerSandbox, SeededRfi } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import type { DatabaseKind } from '../../../apps/reference-app/src/database/database-url.util';
import { appRequest, eventually, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { individual } from '../../setup/partner-inputs.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

export interface RfiAppWorld {
  sandbox: PartnerSandbox;
  running: RunningApp;
  userId: string;
}

/** A small valid PDF (the sandbox checks the bytes are the type they are sent as, spec 7.3). */
export const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

/**
 * The sandbox with its opt-in rfi.* events on (the partner sends them on newer versions, evidence
 * §9), the app on a fresh database of `kind`, and a verified user to seed RFIs on; started in
 * beforeAll, closed in afterAll.
 */
export function useRfiApp(kind: DatabaseKind, label: string, ready: (world: RfiAppWorld) => void): void {
  let sandbox: PartnerSandbox | undefined;
  let running: RunningApp | undefined;
  let cleanup: (() => void) | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ rfiEvents: true });
    const db = await databaseUrlFor(kind, label);
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox);
    const user = await running.app
      .get(PartnerUsersService)
      .create(individual({ last_name: label, email: `${label}@example.com` }));
    await sandbox.control.setUserVerificationOutcome(user.userId, 'approved');
    await sandbox.control.flushWebhooks();
    ready({ sandbox, running, userId: user.userId });
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });
}

/** GET /rfis/{rfi_id} once the app holds it read back with its items (not stale). */
export async function projectedRfi(running: RunningApp, rfiId: string, timeoutMs = 10_000) {
  return eventually(
    async () => {
      const res = await appRequest(running).get(`/rfis/${rfiId}`);
      return res.status === 200 && res.body.stale === false && res.body.items.length > 0
        ? res.body
        : undefined;
    },
    timeoutMs,
    `RFI ${rfiId} projected with its items`,
  ) as Promise<{
    rfi_id: string;
    status: string;
    items: Array<Record<string, unknown>>;
    [k: string]: unknown;
  }>;
}

/** Seeds an RFI on `userId` and waits until the app holds it with its items. */
export async function seedProjected(
  world: RfiAppWorld,
  extra: Partial<Parameters<PartnerSandbox['control']['seedRfi']>[0]> = {},
): Promise<SeededRfi> {
  const seeded = await world.sandbox.control.seedRfi({ userId: world.userId, ...extra });
  await world.sandbox.control.flushWebhooks();
  await projectedRfi(world.running, seeded.rfiId);
  return seeded;
}

/** Requests the sandbox logged for the RFI routes (what the app sent the partner). */
export async function partnerRfiCalls(sandbox: PartnerSandbox): Promise<number> {
  return (await sandbox.control.requestLog()).filter((l) => l.route.includes('/v1/rfis')).length;
}
