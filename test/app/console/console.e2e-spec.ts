/**
 * The RFI console (apps/reference-app/src/console) in a real headless Chromium against the app and
 * the sandbox on a SQLite file: sign-in with the operator token, answers and an upload that reach
 * the sandbox, the library's per-item errors beside their items, CSRF refusals, the CSP, and a
 * partner string with markup shown as text. CONSOLE_SCREENSHOT=<path.png> also saves the RFI page.
 */
import { PartnerRfisService } from '@partner-payments/nestjs';
import type { SeededRfi } from '@partner-payments/testing';
import type { Browser, Page } from 'playwright-core';
import { RfiSync } from '../../../apps/reference-app/src/rfis/rfi-sync.service';
import { TEST_OPERATOR_TOKEN } from '../../setup/app.fixture';
import {
  partnerRfiCalls,
  PDF_BYTES,
  seedProjected,
  useRfiApp,
  type RfiAppWorld,
} from '../rfis/rfi-app.fixture';
import { launchChromium, signIn as signInWith } from './console-browser.fixture';

jest.setTimeout(90_000);

describe('the RFI console in Chromium on sqlite', () => {
  let world: RfiAppWorld;
  let browser: Browser;
  let page: Page;
  useRfiApp('sqlite', 'console_sqlite', (w) => (world = w));

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    page = await (await browser.newContext({ baseURL: world.running.url })).newPage();
    page.on('dialog', (d) => void d.dismiss());
  });
  afterEach(async () => {
    await page?.context().close();
  });

  const signIn = (token?: string) => signInWith(page, token);
  const item = (itemId: string) => page.locator(`#item-${itemId}`);
  const partnerItem = async (seeded: SeededRfi, itemId: string) =>
    (await world.running.app.get(PartnerRfisService).get(seeded.rfiId)).items.find(
      (i) => i.item_id === itemId,
    );

  it('signs in with the operator token into a session cookie, with a strict CSP', async () => {
    const seeded = await seedProjected(world, { blocking: { type: 'payout', transfer_uuid: 'tr-1' } });
    const first = await page.goto('/console');
    const csp = first!.headers()['content-security-policy'];
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/unsafe-inline|script-src/);
    // The stylesheet's hash matches: the CSP lets the page's own style apply.
    await expect(page.evaluate('getComputedStyle(document.body).maxWidth')).resolves.toBe('960px');
    await signIn('not-the-token');
    await expect(page.locator('.error').textContent()).resolves.toMatch(/not the operator token/);
    await signIn();
    const row = page.locator('tr', { has: page.locator(`a[href="/console/rfis/${seeded.rfiId}"]`) });
    await expect(row.textContent()).resolves.toMatch(/blocking payout/);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'console_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
    expect(cookies.map((c) => c.value).join(' ')).not.toContain(TEST_OPERATOR_TOKEN);
    await page.click('text=Sign out');
    await expect(page.locator('#token').count()).resolves.toBe(1);
    // The old cookie is dead on the server too, not only cleared in the browser.
    const replay = await page.request.get(`/console/rfis/${seeded.rfiId}`, {
      headers: { cookie: `console_session=${session.value}` },
      maxRedirects: 0,
    });
    expect(replay.status()).toBe(303);
  });

  it('answers a text and a choice item, shows an over-long answer beside its item, uploads a PDF', async () => {
    const seeded = await seedProjected(world);
    const { text_short: text, choice, document } = seeded.itemIdsByType as Record<string, string>;
    await signIn();
    const unknown = await page.goto('/console/rfis/0b5c2f0e-4a1d-4f5e-9a3b-7c6d5e4f3a2b');
    expect(unknown!.status()).toBe(404);
    await expect(page.locator('main').textContent()).resolves.toMatch(/holds no RFI 0b5c2f0e/);
    await page.goto(`/console/rfis/${seeded.rfiId}`);
    await expect(item(choice).locator('select option').allTextContents()).resolves.toContain('savings');
    await expect(item(document).locator('input[type=file]').getAttribute('accept')).resolves.toBe(
      'application/pdf,image/jpeg,image/png',
    );

    // 51 characters where answer_spec.max_length is 50: refused beside the item, nothing sent.
    const before = await partnerRfiCalls(world.sandbox);
    await page.fill(`#in-${text}`, 'x'.repeat(51));
    await page.selectOption(`#in-${choice}`, 'savings');
    await page.click('button[form=answers]');
    await expect(item(text).locator('.error').textContent()).resolves.toMatch(/at most 50 characters/);
    expect(await item(choice).locator('.error').count()).toBe(0);
    expect(await partnerRfiCalls(world.sandbox)).toBe(before);

    await page.fill(`#in-${text}`, 'Acme Trading');
    await page.selectOption(`#in-${choice}`, 'savings');
    await page.click('button[form=answers]');
    await expect(page.locator('.notice').textContent()).resolves.toBe('Answers sent.');
    await expect(item(text).getAttribute('data-status')).resolves.toBe('answered');
    await expect(item(choice).getAttribute('data-status')).resolves.toBe('answered');
    expect((await partnerItem(seeded, text))?.answer_value).toBe('Acme Trading');
    expect((await partnerItem(seeded, choice))?.answer_value).toBe('savings');

    // A type the item does not take (answer_spec.mime_types), past the input's accept: refused
    // beside the item before anything is sent.
    const beforeUpload = await partnerRfiCalls(world.sandbox);
    await item(document)
      .locator('input[type=file]')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain words') });
    await item(document).locator('button[type=submit]').click();
    await expect(item(document).locator('.error').textContent()).resolves.toMatch(/files\[0\]/);
    expect(await partnerRfiCalls(world.sandbox)).toBe(beforeUpload);

    await item(document)
      .locator('input[type=file]')
      .setInputFiles({ name: 'address.pdf', mimeType: 'application/pdf', buffer: PDF_BYTES });
    await item(document).locator('button[type=submit]').click();
    await expect(page.locator('.notice').textContent()).resolves.toBe('File uploaded.');
    await expect(item(document).locator('.documents').textContent()).resolves.toMatch(/address\.pdf/);
    await expect(item(document).getAttribute('data-status')).resolves.toBe('answered');
    expect((await partnerItem(seeded, document))?.documents).toHaveLength(1);
    if (process.env.CONSOLE_SCREENSHOT)
      await page.screenshot({ path: process.env.CONSOLE_SCREENSHOT, fullPage: true });
  });

  it('refuses a form without its CSRF token (403) and sends nothing', async () => {
    const seeded = await seedProjected(world);
    const text = seeded.itemIdsByType.text_short!;
    await signIn();
    const before = await partnerRfiCalls(world.sandbox);
    const form = { [`answer:${text}`]: 'Forged Ltd' };
    const noToken = await page.request.post(`/console/rfis/${seeded.rfiId}/answers`, { form });
    expect(noToken.status()).toBe(403);
    const wrong = await page.request.post(`/console/rfis/${seeded.rfiId}/answers`, {
      form: { ...form, _csrf: 'x'.repeat(43) },
    });
    expect(wrong.status()).toBe(403);
    const upload = await page.request.post(
      `/console/rfis/${seeded.rfiId}/items/${seeded.itemIdsByType.document}/documents`,
      { multipart: { files: { name: 'a.pdf', mimeType: 'application/pdf', buffer: PDF_BYTES } } },
    );
    expect(upload.status()).toBe(403);
    const signInForged = await browser.newContext({ baseURL: world.running.url });
    const forged = await signInForged.request.post('/console/sign-in', {
      form: { token: TEST_OPERATOR_TOKEN },
    });
    expect(forged.status()).toBe(403);
    await signInForged.close();
    expect(await partnerRfiCalls(world.sandbox)).toBe(before);
    expect((await partnerItem(seeded, text))?.answer_value ?? null).toBeNull();
  });

  it('shows partner strings with markup (a label, a review note) as text', async () => {
    const label = '<img src=x onerror=alert(1)>';
    const seeded = await seedProjected(world, { items: [{ answer_type: 'text_short', prompt: label }] });
    await signIn();
    await page.goto(`/console/rfis/${seeded.rfiId}`);
    expect(await page.locator('img').count()).toBe(0);
    await expect(page.getByText(label, { exact: true }).isVisible()).resolves.toBe(true);

    // A returned item shows its review_note, as text too.
    const note = '<script>document.title="x"</script> Please give the registered name.';
    await world.sandbox.control.returnRfiItem(seeded.rfiId, seeded.itemIds[0]!, note);
    await world.running.app.get(RfiSync).read(seeded.rfiId);
    await page.goto(`/console/rfis/${seeded.rfiId}`);
    await expect(item(seeded.itemIds[0]!).locator('.returned').textContent()).resolves.toBe(
      `Returned: ${note}`,
    );
    expect(await page.locator('script').count()).toBe(0);
  });
});
