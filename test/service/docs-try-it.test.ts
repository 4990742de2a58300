/**
 * /docs "Try it out" in headless Chromium (Debian's package), as a person uses it: over a
 * server on the demo build (the Makefile's ADDRESSES and SEED, as test/service/demo-examples.test.ts
 * builds it), authorise with an API key in swagger-ui's Authorize dialog, then for each of the 28
 * operations press "Try it out" and "Execute" with the values the document prefills
 * (schemas/api/examples.ts) and read a 2xx response code. The key is an enterprise one with a
 * rate limit above the 28 calls, so no pacing depends on the machine's speed.
 * Without /usr/bin/chromium this fails, unless PI_TEST_NO_CHROMIUM=1 says this platform cannot run it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { publishSynthBuild } from '../support/published.ts';
import { chromiumPresent, launchChromium, requireChromium } from '../support/chromium.ts';
import { startTestServer, type TestServer } from './support.ts';


const MAKEFILE = readFileSync(resolve(import.meta.dirname, '../../Makefile'), 'utf8');
const DEMO_ADDRESSES = Number(/^ADDRESSES \?= (\d+)$/m.exec(MAKEFILE)![1]);
const DEMO_SEED = Number(/^SEED \?= (\d+)$/m.exec(MAKEFILE)![1]);

describe('docs page: Try it out', () => {
  requireChromium('the docs try-it-out browser test');

  describe.runIf(chromiumPresent)('in headless Chromium, on the demo build', () => {
    let s: TestServer;
    let browser: Browser;
    beforeAll(async () => {
      s = await startTestServer();
      await publishSynthBuild(s.dataDir, { addresses: DEMO_ADDRESSES, seed: DEMO_SEED });
      browser = await launchChromium();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await s?.stop();
    });

    it('every operation\'s prefilled example answers 2xx when executed', async () => {
      const { key } = await s.account('enterprise', { limit: 10_000, windowMs: 10_000 });
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      /** What the server answered each call, read off the wire beside what the page shows. */
      const sent: { url: string; status: number; auth: string | undefined }[] = [];
      page.on('response', (r) => {
        if (r.url().startsWith(`${s.base}/v1/`) && !r.url().endsWith('/openapi.json')) sent.push({ url: r.url(), status: r.status(), auth: r.request().headers().authorization });
      });
      await page.goto(`${s.base}/docs`, { waitUntil: 'load' });
      await page.waitForSelector('.opblock', { timeout: 30_000 });

      // The Authorize dialog, as a person fills it.
      await page.click('.scheme-container .btn.authorize');
      await page.fill('.modal-ux input[type="text"]', key);
      await page.click('.modal-ux .auth-btn-wrapper button.authorize');
      await page.click('.modal-ux .auth-btn-wrapper button.btn-done');

      const shown = new Map<string, string>();
      for (const r of V1_ROUTES) {
        const op = page.locator(`.opblock.opblock-${r.method.toLowerCase()}`, { has: page.locator(`.opblock-summary-path[data-path="${r.path}"]`) });
        await op.locator('.opblock-summary-control').click();
        await op.locator('.try-out__btn').click();
        await op.locator('button.execute').click();
        const status = op.locator('.live-responses-table .response .response-col_status').first();
        await status.waitFor({ timeout: 60_000 });
        shown.set(`${r.method} ${r.path}`, (await status.textContent())!.trim());
        // Collapse it again so the page stays small.
        await op.locator('.opblock-summary-control').click();
      }
      const failed = [...shown].filter(([, code]) => !/^2\d\d$/.test(code));
      expect(failed, `operations answering non-2xx: ${JSON.stringify(failed)}; calls: ${JSON.stringify(sent.filter((c) => c.status >= 300))}`).toEqual([]);
      expect([...shown.keys()].sort()).toEqual(V1_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
      // One call per operation, every one with the key from the dialog, every one 2xx on the wire too.
      expect(sent).toHaveLength(V1_ROUTES.length);
      expect(sent.every((c) => c.auth === `Bearer ${key}` && c.status < 300)).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    }, 300_000);
  });
});
