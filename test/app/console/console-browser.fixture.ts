/** A real headless Chromium for the console suites: the distribution's package, never a download. */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { TEST_OPERATOR_TOKEN } from '../../setup/app.fixture';

/** CHROMIUM_PATH, or where Debian's `chromium` package puts it (.ci/run installs it). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Launches Chromium or throws, naming what to install: the suite fails rather than skips, so a
 * machine without the browser cannot pass the console's tests unseen.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set CHROMIUM_PATH to its executable`,
    );
  // --no-sandbox: CI runs as root, where Chromium's own sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
}

/** Signs in through the console's form (the page's base URL is the app's). */
export async function signIn(page: Page, token = TEST_OPERATOR_TOKEN): Promise<void> {
  await page.goto('/console');
  await page.fill('#token', token);
  await page.click('button[type=submit]');
}
