/**
 * Both payout event families for one transition (spec 6.4.7: a single transition can produce both a
 * granular payout.* event and payout.status_changed, both authoritative), delivered concurrently in
 * either order with stale events of an earlier status, while a reconciliation pass reads the same
 * payout from the partner: the projection ends at the final status, written once, never moving back.
 * The library emits the unified status for every delivery (no memory of earlier ones), so this is
 * what the projection's own guards and the inbox's once-per-event processing must hold, on a SQLite
 * file and on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import type { PartnerSandbox } from '@partner-payments/testing';
import { inboxEventKey, PartnerUnitOfWork, PartnerWebhookInboxEntity } from '@partner-payments/typeorm';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { appRequest, deliverSignedWebhook, eventually } from '../../setup/app.fixture';
import { postPayout, useFundedApp, type FundedAccount } from '../../setup/funded-account.fixture';
import { DATABASE_KINDS } from '../../setup/test-database.fixture';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(60_000);

type Body = { event: string; data: Record<string, unknown> };

/** payout.completed / payout.processing (flat, lowercase status, spec 6.2, 6.4.5). */
const flat = (event: string, payoutId: string, status: string, extra: object = {}): Body => ({
  event,
  data: { event_id: randomUUID(), payout_id: payoutId, status, ...extra },
});

/** payout.status_changed (V2, UPPERCASE status with previous_status, spec 6.2). */
const v2 = (payoutId: string, status: string, previous: string, extra: object = {}): Body => ({
  event: 'payout.status_changed',
  data: {
    event_id: randomUUID(),
    event_type: 'payout.status_changed',
    created_at: new Date().toISOString(),
    data: { payout_id: payoutId, status, previous_status: previous, amount: '42.00', ...extra },
  },
});

const RANK: Record<string, number> = { CREATED: 0, PENDING: 1, PROCESSING: 2, IN_REVIEW: 2, COMPLETED: 3 };

describe.each(DATABASE_KINDS)('both payout event families racing with reconciliation on %s', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let account: FundedAccount;
  let uow: PartnerUnitOfWork;

  useFundedApp(kind, 'payout-race', `race-${kind}`, (world) => {
    ({ sandbox, running, account, uow } = world);
  });

  const http = () => appRequest(running);
  const row = (payoutId: string) => uow.run((m) => m.findOneByOrFail(PayoutEntity, { payoutId }));
  const deliver = (body: Body) =>
    deliverSignedWebhook(running, JSON.stringify(body), sandbox.webhookSecret).expect(200);
  /** Every entry processed, none failed: each event's handlers ran and committed once. */
  const processed = (bodies: Body[]) =>
    Promise.all(
      bodies.map((b) =>
        eventually(
          async () => {
            const eventKey = inboxEventKey(String(b.data.event_id));
            const entry = await uow.run((m) => m.findOneBy(PartnerWebhookInboxEntity, { eventKey }));
            return entry && entry.state !== 'pending' ? entry : undefined;
          },
          15_000,
          `${b.event} handled`,
        ).then((e) =>
          expect({ state: e.state, error: e.lastError }).toEqual({ state: 'processed', error: null }),
        ),
      ),
    );
  /** A payout the app created, at PROCESSING on both sides. */
  const processingPayout = async () => {
    const { payoutId } = await postPayout(running, account);
    await sandbox.control.advancePayout(payoutId, [{ status: 'PROCESSING', events: 'none' }]);
    const processing = flat('payout.processing', payoutId, 'processing');
    await deliver(processing);
    await processed([processing]);
    const before = await row(payoutId);
    expect(before).toMatchObject({ status: 'PROCESSING', previousStatus: 'CREATED' });
    return { payoutId, before };
  };
  /**
   * Delivers `race` concurrently with a reconciliation pass, then `late` one by one; answers every
   * status the row was seen at meanwhile and the racing pass's summary, and checks that a further
   * pass finds nothing to change.
   */
  const raceThenLate = async (payoutId: string, race: Body[], late: Body[]) => {
    const seen: string[] = [];
    let racing = true;
    let summary: { changed: number } = { changed: Number.NaN };
    const sampler = (async () => {
      while (racing) {
        seen.push((await row(payoutId)).status);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      const [pass] = await Promise.all([
        http().post('/reconciliation/run').expect(200),
        ...race.map((body) => deliver(body)),
      ]);
      expect(pass.body).toMatchObject({ ran: true, failed: 0 });
      summary = pass.body;
      await processed(race);
    } finally {
      racing = false;
      await sampler;
    }
    for (const body of late) await deliver(body);
    await processed(late);
    expect((await http().post('/reconciliation/run').expect(200)).body).toMatchObject({
      changed: 0,
      failed: 0,
    });
    expect(seen.length).toBeGreaterThan(0);
    return { seen, pass: summary };
  };

  it.each([
    ['payout.completed first', false],
    ['payout.status_changed first', true],
  ])(
    '%s, with stale PROCESSING events and a reconciliation pass at once: COMPLETED, written once, never back',
    async (_, reversed) => {
      const { payoutId, before } = await processingPayout();
      const view = await sandbox.control.advancePayout(payoutId, { status: 'COMPLETED', events: 'none' });
      const details = { reference_number: view.reference_number };
      const twins = [
        flat('payout.completed', payoutId, 'completed', details),
        v2(payoutId, 'COMPLETED', 'PROCESSING', details),
      ];
      const stale = [
        flat('payout.processing', payoutId, 'processing'),
        v2(payoutId, 'PROCESSING', 'PENDING'),
      ];
      const race = reversed ? [...twins.reverse(), ...stale.reverse()] : [...twins, ...stale];
      // Late stale deliveries of both families, after COMPLETED is stored: nothing moves back.
      const late = [flat('payout.processing', payoutId, 'processing'), v2(payoutId, 'PENDING', 'CREATED')];
      const { seen } = await raceThenLate(payoutId, race, late);

      const after = await row(payoutId);
      expect(after).toMatchObject({
        status: 'COMPLETED',
        previousStatus: 'PROCESSING', // applied once: a second COMPLETED would record COMPLETED here
        referenceNumber: view.reference_number,
        version: before.version + 1, // one write in all, whichever writer won
      });
      expect(['webhook', 'reconciliation']).toContain(after.lastSource);
      const regressions = seen.filter((s, i) => i > 0 && RANK[s] < RANK[seen[i - 1]]);
      expect(regressions).toEqual([]);
    },
  );

  it.each([
    ['the hold first', false],
    ['the twins of PROCESSING first', true],
  ])(
    '%s: a hold (V2 IN_REVIEW) is not undone by the twins of the earlier PROCESSING, late or racing',
    async (_, reversed) => {
      const { payoutId, before } = await processingPayout();
      const view = await sandbox.control.advancePayout(payoutId, { status: 'IN_REVIEW', events: 'none' });
      expect(view.reference_number).toEqual(expect.any(String));
      const hold = v2(payoutId, 'IN_REVIEW', 'PROCESSING');
      // spec 6.4.7: PENDING -> PROCESSING came from both families; these are its twins, re-ordered.
      const twins = [
        flat('payout.processing', payoutId, 'processing'),
        v2(payoutId, 'PROCESSING', 'PENDING'),
      ];
      const race = reversed ? [...twins, hold] : [hold, ...twins];
      const late = [flat('payout.processing', payoutId, 'processing'), v2(payoutId, 'PROCESSING', 'PENDING')];
      const { seen, pass } = await raceThenLate(payoutId, race, late);

      const after = await row(payoutId);
      // The partner assigned reference_number when it sent the payment, at PROCESSING, but no event
      // here carries it (spec 6.4 note 4: only the terminal flat ones): only a pass that read the
      // resource stores it (spec 6.4.4; list rows lack it, and a pass reads by GET when that is
      // cheaper or when its list claim skipped the row a webhook was writing). One write per fact:
      // the hold's status once, and the reference number with it when the pass that read it stored
      // the status, else in a write of its own after the hold's.
      expect([null, view.reference_number]).toContain(after.referenceNumber);
      const referenceAfterHold = after.referenceNumber !== null && pass.changed === 0;
      expect(after).toMatchObject({
        status: 'IN_REVIEW',
        previousStatus: 'PROCESSING', // applied once: a second IN_REVIEW would record IN_REVIEW here
        version: before.version + (referenceAfterHold ? 2 : 1),
      });
      if (after.referenceNumber !== null) expect(after.lastSource).toBe('reconciliation');
      // Once held, never seen back at PROCESSING.
      expect(seen.slice(seen.indexOf('IN_REVIEW'))).not.toContain('PROCESSING');
    },
  );
});
