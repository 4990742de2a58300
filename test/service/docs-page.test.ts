/**
 * GET /docs in headless Chromium (Debian's package): the self-hosted swagger-ui renders
 * every operation from /v1/openapi.json, and the page loads nothing from another origin.
 * Without /usr/bin/chromium this fails in CI (CI=true) and is skipped, saying why, locally.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { call, startTestServer, type TestServer } from './support.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
if (!present && !inCi) process.stderr.write(`SKIP: ${CHROMIUM} not found (apt-get install chromium); the docs page browser test is skipped\n`);

describe('docs page', () => {
  if (!present && inCi) {
    it('needs Chromium in CI', () => {
      expect.fail(`${CHROMIUM} is missing in CI: .ci/run installs it with apt-get`);
    });
  }

  describe.runIf(present)('in headless Chromium', () => {
    let s: TestServer;
    let browser: Browser;
    beforeAll(async () => {
      s = await startTestServer();
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
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

    it('renders every operation, offline', async () => {
      const page = await browser.newPage();
      const foreign: string[] = [];
      const errors: string[] = [];
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
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });
  });
});
