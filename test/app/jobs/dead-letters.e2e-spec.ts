/**
 * The inbox's dead letters for operators: an event whose handler keeps failing ends dead
 * (INBOX_MAX_ATTEMPTS 2 in the jobs app), GET /inbox/dead names it without its body, and once the
 * cause is fixed POST /inbox/dead/retry processes it; bad input is a 400 naming the field. On a
 * SQLite file and on PostgreSQL.
 */
import { DATABASE_KINDS } from '../../setup/test-database.fixture';
import { breakableDepositHandler, useJobsApp } from './jobs-app.fixture';

jest.setTimeout(30_000);

describe.each(DATABASE_KINDS)('inbox dead letters on %s', (kind) => {
  const { jobs, http, inboxEntryOf, failedEntryMadeDue } = useJobsApp(kind, 'dead-letters');

  const entryOf = inboxEntryOf;

  /** A deposit whose handler fails twice: dead at the jobs app's limit of 2. */
  const deadDeposit = async (amount: string) => {
    const { depositId } = await jobs.sandbox.control.simulateDeposit(jobs.account.virtualAccountId, {
      amount,
    });
    const failed = await failedEntryMadeDue(depositId);
    expect((await http().post('/inbox/redeliver').expect(200)).body).toMatchObject({ failed: 1 });
    expect(await entryOf(depositId)).toMatchObject({ state: 'dead', attempts: 2 });
    return { depositId, eventId: failed.eventId };
  };

  it('lists a dead entry without its body and processes it again once the handler is fixed', async () => {
    const handler = breakableDepositHandler(jobs.running);
    try {
      const first = await deadDeposit('7.00');
      const second = await deadDeposit('8.00');

      const listed = (await http().get('/inbox/dead').expect(200)).body;
      expect(listed.entries).toEqual([
        {
          event_id: first.eventId,
          event: 'virtual_account.deposit_funds_received',
          attempts: 2,
          last_error: 'ledger unavailable',
          received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
        expect.objectContaining({ event_id: second.eventId, attempts: 2 }),
      ]);
      // Ids and errors only: nothing of the partner's body (amounts, deposit ids, sender names).
      expect(JSON.stringify(listed)).not.toContain(first.depositId);
      expect((await http().get('/inbox/dead?limit=1').expect(200)).body.entries).toHaveLength(1);

      // Named ones only; an unknown or not-dead id changes nothing.
      handler.broken = false;
      const one = await http()
        .post('/inbox/dead/retry')
        .send({ event_ids: [first.eventId, 'no-such-event'] })
        .expect(200);
      expect(one.body).toMatchObject({ requeued: 1, redelivery: { ran: true, processed: 1, failed: 0 } });
      expect(await entryOf(first.depositId)).toMatchObject({ state: 'processed', attempts: 3 });
      expect(await entryOf(second.depositId)).toMatchObject({ state: 'dead', attempts: 2 });

      // Without event_ids: every dead entry. A handler still failing leaves it dead after one more try.
      handler.broken = true;
      const all = await http().post('/inbox/dead/retry').send({}).expect(200);
      expect(all.body).toMatchObject({ requeued: 1, redelivery: { failed: 1, dead: 1 } });
      expect(await entryOf(second.depositId)).toMatchObject({ state: 'dead', attempts: 3 });
      handler.broken = false;
      expect((await http().post('/inbox/dead/retry').expect(200)).body).toMatchObject({
        requeued: 1,
        redelivery: { processed: 1, dead: 0 },
      });
      expect((await http().get('/inbox/dead').expect(200)).body.entries).toEqual([]);
      expect((await http().get('/inbox').expect(200)).body.dead ?? 0).toBe(0);
    } finally {
      handler.off();
    }
  });

  it('answers 400 naming the field for a bad limit, bad event_ids or an unknown parameter', async () => {
    const bad = async (req: ReturnType<ReturnType<typeof http>['get']>, field: string) =>
      expect(JSON.stringify((await req.expect(400)).body)).toContain(field);
    await bad(http().get('/inbox/dead?limit=0'), 'limit');
    await bad(http().get('/inbox/dead?limit=abc'), 'limit');
    await bad(http().get('/inbox/dead?state=dead'), 'state');
    await bad(http().post('/inbox/dead/retry').send({ event_ids: 'evt-1' }), 'event_ids');
    await bad(http().post('/inbox/dead/retry').send({ event_ids: [] }), 'event_ids');
    await bad(
      http()
        .post('/inbox/dead/retry')
        .send({ event_ids: [''] }),
      'event_ids',
    );
    await bad(
      http()
        .post('/inbox/dead/retry')
        .send({ event_ids: [1] }),
      'event_ids',
    );
    await bad(http().post('/inbox/dead/retry').send({ all: true }), 'all');
  });
});
