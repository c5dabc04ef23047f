/** A real headless Chromium for the console suites: the distribution's package, never a download. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
