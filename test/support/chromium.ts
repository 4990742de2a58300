/**
 * Debian's Chromium for the browser tests (docs page, try it out): where it is, whether this
 * platform says it cannot run it (PI_TEST_NO_CHROMIUM=1, README), and how it is launched.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { expect, it } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumPresent = existsSync(CHROMIUM);
const platformCannot = process.env.PI_TEST_NO_CHROMIUM === '1';

/**
 * Call inside a describe: without Chromium a failing test, unless the platform cannot run it
 * (then a line on stderr saying what is skipped). Run the browser tests under runIf(chromiumPresent).
 */
export function requireChromium(what: string): void {
  if (chromiumPresent) return;
  if (platformCannot) {
    process.stderr.write(`SKIP: ${CHROMIUM} not found and PI_TEST_NO_CHROMIUM=1; ${what} is skipped\n`);
    return;
  }
  it('needs Chromium', () => {
    expect.fail(`${CHROMIUM} is missing: apt-get install chromium (make test does), or set PI_TEST_NO_CHROMIUM=1 where this platform cannot run it`);
  });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
