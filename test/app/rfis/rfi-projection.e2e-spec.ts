/**
 * The RFI projection (apps/reference-app/src/rfis): an RFI seeded at the sandbox reaches the app by
 * its rfi.created event (evidence §9: no items, so the app reads it back), and, when that event is
 * lost (spec 6.1.4: never re-sent), by a reconciliation pass; a closed RFI leaves the open list;
 * the list's filters and their refusals; the gauges. On a SQLite file and on PostgreSQL.
 */
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import type { PartnerSandbox } from '@partner-payments/testing';
import request from 'supertest';
import { appRequest, eventually } from '../../setup/app.fixture';
import { scrapeMetrics } from '../../setup/metrics.fixture';
import { DATABASE_KINDS } from '../../setup/test-database.fixture';
import { partnerRfiCalls, projectedRfi, useRfiApp } from './rfi-app.fixture';

jest.setTimeout(60_000);

describe.each(DATABASE_KINDS)('the RFI projection on %s', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let userId: string;
  useRfiApp(kind, `rfiproj_${kind}`, (world) => ({ sandbox, running, userId } = world));

  const http = () => appRequest(running);
  const openIds = async (query = '') =>
    ((await http().get(`/rfis${query}`).expect(200)).body.rfis as Array<{ rfi_id: string }>).map(
      (r) => r.rfi_id,
    );

  it('an RFI seeded at the sandbox appears after its rfi.created event, with its items read back', async () => {
    const dueAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const transfer = '3f8e5a52-2c43-4c1e-9a57-2f0c8f1a7b10';
    const seeded = await sandbox.control.seedRfi({
      userId,
      dueAt,
      blocking: { type: 'payout', transfer_uuid: transfer },
    });
    await sandbox.control.flushWebhooks();
    const rfi = await projectedRfi(running, seeded.rfiId);
    expect(rfi).toMatchObject({
      rfi_id: seeded.rfiId,
      user_id: userId,
      status: 'pending',
      blocking: { type: 'payout', reference: transfer },
      due_at: dueAt,
      overdue: false,
    });
    expect(rfi.items.map((i) => i.item_id)).toEqual(seeded.itemIds);
    const text = rfi.items.find((i) => i.answer_type === 'text_short');
    expect(text).toMatchObject({ status: 'pending', answer_spec: { max_length: 50 }, review_note: null });
    expect(text).not.toHaveProperty('answer_value');
    expect(await openIds(`?user_id=${userId}&blocking=true`)).toContain(seeded.rfiId);
    expect(await openIds('?blocking=false')).not.toContain(seeded.rfiId);
    expect(
      await openIds(`?due_before=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`),
    ).not.toContain(seeded.rfiId);
    expect(await openIds('?due_before=2100-01-01')).toContain(seeded.rfiId);
    const scrape = await scrapeMetrics(running);
    expect(scrape.value('partner_rfis_open')).toBeGreaterThanOrEqual(1);
    expect(scrape.value('partner_rfis_blocking')).toBeGreaterThanOrEqual(1);
    expect(scrape.value('partner_rfi_blocking_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('an RFI whose rfi.created was dropped appears after one reconciliation pass; a second changes nothing', async () => {
    await sandbox.control.dropNextWebhooks(1, 'rfi.created');
    const seeded = await sandbox.control.seedRfi({
      userId,
      dueAt: new Date(Date.now() - 60_000 + 86_400_000).toISOString(),
    });
    await sandbox.control.flushWebhooks();
    const dropped = (await sandbox.control.deliveries()).filter((d) => d.outcome === 'dropped');
    expect(dropped.map((d) => d.event)).toContain('rfi.created');
    await http().get(`/rfis/${seeded.rfiId}`).expect(404);
    const pass = (await http().post('/rfis/reconciliation/run').expect(200)).body;
    expect(pass).toMatchObject({ ran: true, missing: 1 });
    expect(pass.read).toBeGreaterThanOrEqual(1);
    const rfi = (await http().get(`/rfis/${seeded.rfiId}`).expect(200)).body;
    expect(rfi).toMatchObject({ status: 'pending', stale: false, last_source: 'reconciliation' });
    expect(rfi.items).toHaveLength(seeded.itemIds.length);
    const again = (await http().post('/rfis/reconciliation/run').expect(200)).body;
    expect(again).toMatchObject({ ran: true, missing: 0, changed: 0, read: 0 });
  });

  it('a closed RFI leaves the open list at the next pass, and an overdue one is counted', async () => {
    const closed = await sandbox.control.seedRfi({ userId });
    await sandbox.control.flushWebhooks();
    await projectedRfi(running, closed.rfiId);
    // rfi.resolved is not among the events the evidence names: the pass reads the status.
    await sandbox.control.setRfiStatus(closed.rfiId, 'resolved');
    await http().post('/rfis/reconciliation/run').expect(200);
    expect(await openIds()).not.toContain(closed.rfiId);
    expect((await http().get(`/rfis/${closed.rfiId}`).expect(200)).body.status).toBe('resolved');

    const overdue = await sandbox.control.seedRfi({
      userId,
      dueAt: new Date(Date.now() + 5000).toISOString(),
    });
    await sandbox.control.flushWebhooks();
    // Read back before its deadline (the sandbox closes an RFI read after it: evidence §7).
    await projectedRfi(running, overdue.rfiId);
    await eventually(
      async () => ((await scrapeMetrics(running)).value('partner_rfis_overdue') >= 1 ? true : undefined),
      20_000,
      'overdue gauge',
    );
  });

  it('refuses a bad list query with a 400 naming each parameter, calling nobody', async () => {
    const before = await partnerRfiCalls(sandbox);
    const res = await http()
      .get('/rfis?user_id=nope&blocking=yes&due_before=tomorrow&colour=red')
      .expect(400);
    expect(res.body.message).toEqual(
      expect.arrayContaining([
        'user_id must be a UUID',
        'blocking must be true or false',
        expect.stringMatching(/^due_before must be a date/),
        expect.stringMatching(/^colour is not a known parameter/),
      ]),
    );
    await http()
      .get('/rfis/not-a-uuid')
      .expect(400, { statusCode: 400, message: ['rfi_id must be a UUID'], error: 'Bad Request' });
    expect(await partnerRfiCalls(sandbox)).toBe(before);
  });

  it('is operator-only', async () => {
    await request(running.app.getHttpServer()).get('/rfis').expect(401);
  });
});
