import { AppMetrics } from './app-metrics.service';

/** The value of one series of a scrape, or undefined when the series is absent. */
async function series(metrics: AppMetrics, name: string, labels = ''): Promise<number | undefined> {
  const text = await metrics.registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('AppMetrics: webhook backpressure', () => {
  it('counts waits by outcome and their time, from the library onWebhookEvent hook', async () => {
    const metrics = new AppMetrics();
    const waits = 'partner_webhook_backpressure_waits_total';
    // Present from the first scrape, so an alert rule comparing with 0 has a series.
    expect(await series(metrics, waits, '{outcome="timeout"}')).toBe(0);
    const { onWebhookEvent } = metrics.partnerHooks();
    const wait = { type: 'backpressure' as const, eventName: 'user.created', eventId: 'e1' };
    onWebhookEvent?.({ ...wait, waitedMs: 250, timedOut: false });
    onWebhookEvent?.({ ...wait, waitedMs: 5_000, timedOut: true });
    onWebhookEvent?.({ ...wait, waitedMs: 750, timedOut: false });
    expect(await series(metrics, waits, '{outcome="room"}')).toBe(2);
    expect(await series(metrics, waits, '{outcome="timeout"}')).toBe(1);
    expect(await series(metrics, 'partner_webhook_backpressure_wait_seconds_total')).toBe(6);
    // Not a processing run: the processing counter has no series yet.
    expect(
      await series(metrics, 'partner_webhook_processing_total', '{outcome="processed",event="user.created"}'),
    ).toBeUndefined();
  });
});

describe('AppMetrics: client-side rate-limiter waits', () => {
  it('counts waits and their time, from the library onRateLimitWait hook', async () => {
    const metrics = new AppMetrics();
    const { onRateLimitWait } = metrics.partnerHooks();
    const wait = { method: 'GET', route: '/v1/payouts/{payout_id}' };
    onRateLimitWait?.({ ...wait, waitMs: 50 });
    onRateLimitWait?.({ ...wait, waitMs: 450 });
    expect(await series(metrics, 'partner_rate_limit_waits_total')).toBe(2);
    expect(await series(metrics, 'partner_rate_limit_wait_seconds_total')).toBe(0.5);
    // The two kinds of wait are counted apart.
    expect(await series(metrics, 'partner_webhook_backpressure_wait_seconds_total')).toBe(0);
  });
});

describe('AppMetrics: every series an alert rule reads exists from the first scrape (docs/operations.md)', () => {
  // increase() over a series whose first sample already holds N reads no increase: a burst that
  // created the series between two scrapes would never fire the alert.
  it.each([
    ['partner_webhooks_received_total', '{outcome="refused",reason="inbox_unavailable"}'],
    ['partner_webhooks_received_total', '{outcome="refused",reason="mismatch"}'],
    ['reconciliation_items_total', '{job="payouts",result="changed"}'],
    ['reconciliation_items_total', '{job="deposits",result="missing"}'],
    ['partner_webhook_processing_total', '{outcome="failed",event="payout.completed"}'],
    ['partner_webhook_processing_total', '{outcome="failed",event="unknown"}'],
    ['payout_redrive_requests_total', '{outcome="needs_review"}'],
    ['partner_token_failures_total', '{reason="unavailable"}'],
  ])('%s%s is 0 before anything happened', async (name, labels) => {
    expect(await series(new AppMetrics(), name, labels)).toBe(0);
  });

  it('then counts from 0: a refused delivery and a drifted pass move their series by their amounts', async () => {
    const metrics = new AppMetrics();
    metrics
      .partnerHooks()
      .onWebhookEvent?.({ type: 'received', outcome: 'refused', reason: 'inbox_unavailable' });
    metrics.reconciliationPass('payouts', { ran: true, checked: 5, changed: 2, failed: 0 }, [
      'checked',
      'changed',
      'failed',
    ]);
    expect(
      await series(
        metrics,
        'partner_webhooks_received_total',
        '{outcome="refused",reason="inbox_unavailable"}',
      ),
    ).toBe(1);
    expect(await series(metrics, 'reconciliation_items_total', '{job="payouts",result="changed"}')).toBe(2);
    expect(await series(metrics, 'reconciliation_items_total', '{job="deposits",result="changed"}')).toBe(0);
  });
});
