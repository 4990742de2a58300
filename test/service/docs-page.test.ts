/**
 * GET /docs in headless Chromium (Debian's package): the self-hosted swagger-ui renders
 * every operation from /v1/openapi.json, and the page loads nothing from another origin.
 * Without /usr/bin/chromium this fails, unless PI_TEST_NO_CHROMIUM=1 (README) says this
 * platform cannot run it: then skipped, saying so. make test installs Debian's package (scripts/install-system-deps.sh).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { chromiumPresent, launchChromium, requireChromium } from '../support/chromium.ts';
import { call, startTestServer, type TestServer } from './support.ts';

/** Kept for people to look at (git-ignored; CI keeps test-artifacts/ as an artefact). */
const SCREENSHOT = resolve(import.meta.dirname, '../../test-artifacts/docs.png');

describe('docs page', () => {
  requireChromium('the docs page browser test');

  describe.runIf(chromiumPresent)('in headless Chromium', () => {
    let s: TestServer;
    let browser: Browser;
    beforeAll(async () => {
      s = await startTestServer();
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await s?.stop();
    });

    it('serves the page and its assets from this origin, with a CSP', async () => {
      const r = await call(s.base, 'GET', '/docs');
      expect(r.status).toBe(200);
      expect(r.headers['content-security-policy']).toContain("default-src 'self'");
      expect(r.text).not.toMatch(/https?:\/\//);
      expect((await call(s.base, 'GET', '/docs/swagger-ui-bundle.js')).status).toBe(200);
    });

    it('renders every operation, offline, with no console error and no warning banner', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const foreign: string[] = [];
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console: ${m.text()}`);
      });
      page.on('request', (req) => {
        if (!req.url().startsWith(s.base)) foreign.push(req.url());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${s.base}/docs`, { waitUntil: 'load' });
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      const ops = await page.$$eval('.opblock', (els) =>
        els.map((el) => `${el.querySelector('.opblock-summary-method')?.textContent?.trim()} ${el.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
      );
      expect(ops.sort()).toEqual(V1_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
      expect(await page.textContent('.info .title')).toContain('Property Intelligence API');
      // swagger-ui's red "Warning" box (e.g. for a jsonSchemaDialect it does not support).
      expect(await page.$$('.errors-wrapper')).toHaveLength(0);
      // An error example as a customer sees it: a real problem body, not schema bounds.
      await page.click('#operations-Identity-searchAddresses .opblock-summary-control');
      await page.waitForSelector('#operations-Identity-searchAddresses .responses-table', { timeout: 30_000 });
      const responses = await page.textContent('#operations-Identity-searchAddresses .responses-table');
      expect(responses).toContain('"status": 400');
      expect(responses).not.toContain('9007199254740991');
      mkdirSync(resolve(SCREENSHOT, '..'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: false });
      expect(existsSync(SCREENSHOT)).toBe(true);
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });
  });
});
