/**
 * The console's page for what the jobs left to a person (apps/reference-app/src/console), in a
 * real headless Chromium on a SQLite file: a payout request left needs_review and a dead inbox
 * entry are listed, the entry's retry (CSRF-checked) processes it once its handler is fixed.
 */
import { randomUUID } from 'node:crypto';
import { PartnerPayoutRequestEntity } from '@partner-payments/typeorm';
import type { Browser, Page } from 'playwright-core';
import { breakableDepositHandler, useJobsApp } from '../jobs/jobs-app.fixture';
import { launchChromium, signIn } from './console-browser.fixture';

jest.setTimeout(90_000);

describe('the console lists needs_review payouts and dead inbox entries, and retries them, on sqlite', () => {
  const { jobs, http, uow, inboxEntryOf, failedEntryMadeDue } = useJobsApp('sqlite', 'console_ops');
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ baseURL: jobs.running.url })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows both, refuses a retry without its CSRF token, and retries a dead entry', async () => {
    const key = randomUUID();
    const long = new Date(Date.now() - 25 * 3_600_000);
    await uow().run((m) =>
      m.insert(PartnerPayoutRequestEntity, {
        idempotencyKey: key,
        fingerprint: 'f'.repeat(64),
        virtualAccountId: jobs.account.virtualAccountId,
        recipientId: jobs.account.recipientId,
        amount: '12.34',
        currency: 'USD',
        state: 'needs_review',
        payoutId: null,
        lastError: '<b>timeout</b>',
        createdAt: long,
        updatedAt: long,
      }),
    );
    const handler = breakableDepositHandler(jobs.running);
    try {
      const { depositId } = await jobs.sandbox.control.simulateDeposit(jobs.account.virtualAccountId, {
        amount: '9.00',
      });
      const failed = await failedEntryMadeDue(depositId);
      await http().post('/inbox/redeliver').expect(200);
      expect(await inboxEntryOf(depositId)).toMatchObject({ state: 'dead' });

      await signIn(page);
      await page.goto('/console/operations');
      const review = await page.locator('#needs-review').textContent();
      expect(review).toContain(key);
      expect(review).toContain('12.34 USD');
      expect(review).toContain('<b>timeout</b>');
      const row = page.locator(`#dead-${failed.eventId}`);
      await expect(row.textContent()).resolves.toMatch(
        /virtual_account\.deposit_funds_received.*ledger unavailable/s,
      );

      handler.broken = false;
      const forged = await page.request.post('/console/inbox/dead/retry', {
        form: { event_id: failed.eventId },
      });
      expect(forged.status()).toBe(403);
      expect(await inboxEntryOf(depositId)).toMatchObject({ state: 'dead' });

      await row.locator('button').click();
      await expect(page.locator('.notice').textContent()).resolves.toBe(
        'Requeued 1: processed 1, failed 0, dead 0.',
      );
      expect(await page.locator(`#dead-${failed.eventId}`).count()).toBe(0);
      expect(await inboxEntryOf(depositId)).toMatchObject({ state: 'processed' });
    } finally {
      handler.off();
    }
  });
});
