/**
 * The console (/console) in headless Chromium (Debian's package) on the demo build, used as a
 * customer would, with the keyboard alone: sign in, type an address key by key, open the home,
 * load its valuations, history charts, risks and map; open its area page and the short-term-let
 * market; look at the account and rotate the key. Checked on the way: no request leaves the
 * origin, axe finds no serious or critical violation on any page, and the credits the console
 * showed (on each button, before the click) are exactly what the ledger charged. Screenshots
 * of each page are kept in test-artifacts/ (git-ignored; CI keeps the folder).
 */
import { AxeBuilder } from '@axe-core/playwright';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../../console/build.ts';
import { demoProperty, type DemoProperty } from '../../scripts/demo-requests.ts';
import { publishSynthBuild } from '../support/published.ts';
import { call, startTestServer, type TestServer } from '../service/support.ts';

/** The page's own globals, inside page.evaluate callbacks (this file is type-checked without the DOM library). */
declare const document: {
  activeElement: { matches(s: string): boolean } | null;
  querySelector(s: string): { textContent: string | null } | null;
  querySelectorAll(s: string): Iterable<{ textContent: string | null }>;
};

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts');
const MAKEFILE = readFileSync(resolve(import.meta.dirname, '../../Makefile'), 'utf8');
const DEMO_ADDRESSES = Number(/^ADDRESSES \?= (\d+)$/m.exec(MAKEFILE)![1]);
const DEMO_SEED = Number(/^SEED \?= (\d+)$/m.exec(MAKEFILE)![1]);
const present = existsSync(CHROMIUM);
const platformCannot = process.env.PI_TEST_NO_CHROMIUM === '1';
if (!present && platformCannot) process.stderr.write(`SKIP: ${CHROMIUM} not found and PI_TEST_NO_CHROMIUM=1; the console browser test is skipped\n`);

/** Presses Tab until the element matching `selector` has the focus (a keyboard user's way there), then Enter. */
async function tabToAndPress(page: Page, selector: string, key = 'Enter'): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) {
      await page.keyboard.press(key);
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`${selector} cannot be reached with the Tab key`);
}

async function axe(page: Page, name: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${name}: ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: resolve(ARTIFACTS, `console-${name}.png`), fullPage: true });
}

/** Loads a priced section with the keyboard; returns the cost its button showed before the press. */
async function loadSection(page: Page, id: string): Promise<number> {
  const shown = Number(await page.getAttribute(`#${id}-load`, 'data-cost'));
  await tabToAndPress(page, `#${id}-load`);
  await page.waitForSelector(`#${id}-body[data-loaded="true"]`, { timeout: 60_000 });
  return shown;
}

describe('console', () => {
  if (!present && !platformCannot) {
    it('needs Chromium', () => {
      expect.fail(`${CHROMIUM} is missing: make test installs it (scripts/install-system-deps.sh), or set PI_TEST_NO_CHROMIUM=1 where this platform cannot run it`);
    });
  }

  describe.runIf(present)('in headless Chromium', () => {
    let s: TestServer;
    let browser: Browser;
    let home: DemoProperty;
    let sizes: Record<string, { bytes: number; gzip_bytes: number }>;
    beforeAll(async () => {
      sizes = await buildConsole();
      s = await startTestServer();
      await publishSynthBuild(s.dataDir, { addresses: DEMO_ADDRESSES, seed: DEMO_SEED });
      home = await demoProperty(s.dataDir);
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
    }, 300_000);
    afterAll(async () => {
      await browser?.close();
      await s?.stop();
    });

    it('serves the bundle from this origin under a strict CSP', async () => {
      const page = await call(s.base, 'GET', '/console');
      expect(page.status).toBe(200);
      const csp = page.headers['content-security-policy'] as string;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(page.text).not.toMatch(/https?:\/\//);
      for (const f of ['app.js', 'app.css']) expect((await call(s.base, 'GET', `/console/${f}`)).status).toBe(200);
      expect((await call(s.base, 'GET', '/console/images/..%2F..%2Fpackage.json')).status).toBe(404);
      expect(sizes['app.js']!.gzip_bytes).toBeGreaterThan(0);
    });

    it('a customer finds a home, values it, looks around, opens its area and rotates the key, by keyboard, spending exactly what was shown', async () => {
      const { key, id } = await s.account('enterprise', { limit: 10_000, windowMs: 10_000 });
      const usedBefore = (await s.ledger.account(id, new Date(s.clock.ms)))!.used_this_cycle;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const foreign: string[] = [];
      const errors: string[] = [];
      let charged = 0;
      let searchesCharged = 0;
      page.on('request', (r) => {
        if (!r.url().startsWith(s.base)) foreign.push(r.url());
      });
      page.on('response', (r) => {
        const c = Number(r.headers()['x-credits-cost'] ?? '0');
        charged += c;
        if (r.url().includes('/v1/addresses/search') && c > 0) searchesCharged += 1;
      });
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });

      await page.goto(`${s.base}/console`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-interactive="true"]');
      const interactiveMs = await page.evaluate(() => performance.getEntriesByName('console-interactive')[0]!.startTime);
      await axe(page, 'sign-in');
      await shot(page, 'signin');

      // Sign in: the key box has the focus. A wrong key is refused, saying so, and costs nothing.
      await page.keyboard.type('pi_live_thisisnotakey0000000000000');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => (document.querySelector('[role=alert]')?.textContent ?? '').includes('not valid'));
      // Chromium logs the refused request itself; that 401 is the expected answer.
      expect(errors).toEqual(['Failed to load resource: the server responded with a status of 401 (Unauthorized)']);
      errors.length = 0;
      await page.fill('#key', '');
      await page.focus('#key');
      await page.keyboard.type(key);
      await page.keyboard.press('Enter');
      await page.waitForSelector('#address:focus');
      await axe(page, 'search');

      // Type the address key by key; the debounced box asks once the typing pauses.
      const street = home.address.split(',')[0]!;
      await page.keyboard.type(street, { delay: 60 });
      await page.waitForFunction((addr) => [...document.querySelectorAll('#address-options [role=option]')].some((o) => o.textContent === addr), home.address, { timeout: 30_000 });
      const options = await page.$$eval('#address-options [role=option]', (els) => els.map((e) => e.textContent));
      const at = options.indexOf(home.address);
      for (let i = 0; i < at; i++) await page.keyboard.press('ArrowDown');
      await shot(page, 'search');
      await page.keyboard.press('Enter');

      // The property page, by its shareable URL.
      await page.waitForSelector('#property-title');
      expect(page.url()).toContain(`#/property/${home.uprn}`);
      expect(await page.textContent('#property-title')).toBe(home.address);
      const shown: Record<string, number> = {};
      for (const sec of ['valuations', 'history', 'risks', 'around']) shown[sec] = await loadSection(page, sec);
      expect(await page.$$eval('#valuations-body tbody tr', (rows) => rows.length)).toBe(3);
      expect(await page.textContent('#valuations-body')).toMatch(/High|Medium|Low/);
      for (const chart of ['Sale prices', 'Energy efficiency']) expect(await page.$(`figure[data-chart="${chart}"] canvas`), chart).not.toBeNull();
      expect(await page.$('#map.leaflet-container')).not.toBeNull();
      const layerNames = await page.$$eval('.leaflet-control-layers-overlays label', (ls) => ls.map((l) => l.textContent?.trim()));
      expect(layerNames.map((n) => n?.replace(/ \(\d+\)$/, ''))).toEqual(['Sold comparables', 'Listings', 'Schools', 'Licensed HMOs', 'Crime']);
      // Every item the answers give a position is drawn: the layer notes say how many were found and placed.
      const notes = await page.$$eval('.layer-notes li', (ls) => ls.map((l) => l.textContent ?? ''));
      const placedOf = (layer: string) => {
        const m = new RegExp(`^${layer}: (\\d+) found, (\\d+) placed`).exec(notes.find((n) => n.startsWith(layer)) ?? '');
        return m ? { found: Number(m[1]), placed: Number(m[2]) } : undefined;
      };
      for (const layer of ['Sold comparables', 'Listings', 'Schools', 'Licensed HMOs']) {
        const p = placedOf(layer);
        expect(p, `${layer}: ${notes.join(' | ')}`).toBeDefined();
        expect(p!.placed, layer).toBe(p!.found);
      }
      expect(placedOf('Sold comparables')!.found).toBeGreaterThan(0);
      expect(placedOf('Listings')!.found).toBeGreaterThan(0);
      const drawn = await page.$$eval('#map path.leaflet-interactive', (p) => p.length);
      // The home, the crime radius and one marker per placed item.
      const items = ['Sold comparables', 'Listings', 'Schools', 'Licensed HMOs'].reduce((n, l) => n + placedOf(l)!.placed, 0);
      expect(drawn).toBe(2 + items);
      await axe(page, 'property');
      await shot(page, 'property');

      // What the tab paid for is kept for its session: after a reload the shared URL opens the
      // record at once, and every section says it is already paid for and charges nothing.
      const chargedBeforeReload = charged;
      await page.reload({ waitUntil: 'load' });
      await page.waitForSelector('#property-title');
      for (const sec of ['valuations', 'history', 'risks', 'around']) {
        expect(await page.textContent(`#${sec}-load`)).toMatch(/already paid for/);
        expect(await loadSection(page, sec)).toBe(0);
      }
      expect(charged).toBe(chargedBeforeReload);

      // The area page for the home's outcode, and its short-term-let market.
      await page.goto(`${s.base}/console#/area/${home.outcode}`);
      await page.waitForSelector('#prices-load');
      for (const sec of ['profile', 'prices', 'rents', 'str']) shown[`area-${sec}`] = await loadSection(page, sec);
      expect(await page.$('figure[data-chart="House price index and sales"] canvas')).not.toBeNull();
      expect(await page.$('#str-body figure canvas')).not.toBeNull();
      expect(await page.textContent('#str-body')).toMatch(/Strongest: .+\. Weakest: .+\./);
      await axe(page, 'area');
      await shot(page, 'area');

      // The account: usage, then the key rotated, the new key shown once.
      await page.goto(`${s.base}/console#/account`);
      await page.waitForSelector('#rotate');
      expect(await page.$('figure[data-chart="Credits by day"] canvas')).not.toBeNull();
      await axe(page, 'account');
      await tabToAndPress(page, '#rotate');
      await page.waitForSelector('#rotate-confirm:focus');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#new-key');
      const newKey = (await page.textContent('#new-key'))!;
      expect(newKey).toMatch(/^pi_live_/);
      expect(newKey).not.toBe(key);
      await shot(page, 'account');
      expect((await call(s.base, 'GET', '/v1/account', { key })).status).toBe(401);
      expect((await call(s.base, 'GET', '/v1/account', { key: newKey })).status).toBe(200);

      // What was shown is what was charged: the buttons' prices plus the searches the box sent,
      // the header's running total, every X-Credits-Cost the browser received, and the ledger.
      const searchCost = JSON.parse((await call(s.base, 'GET', '/v1/openapi.json')).text).paths['/addresses/search'].get['x-credits-cost'];
      const recordCost = JSON.parse((await call(s.base, 'GET', '/v1/openapi.json')).text).paths['/properties/{uprn}'].get['x-credits-cost'];
      const expected = Object.values(shown).reduce((a, b) => a + b, 0) + searchesCharged * searchCost + recordCost;
      const header = await page.textContent('#spent');
      const usedAfter = (await s.ledger.account(id, new Date(s.clock.ms)))!.used_this_cycle;
      expect(usedAfter - usedBefore).toBe(expected);
      expect(charged).toBe(expected);
      expect(header).toBe(`Spent in this tab: ${expected.toLocaleString('en-GB')} credits`);
      expect(searchesCharged).toBeGreaterThan(0);
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(resolve(ARTIFACTS, 'console-timing.json'), JSON.stringify({ interactive_ms: interactiveMs, bundle: sizes, credits_spent: expected }, null, 2));
      process.stdout.write(`console: interactive after ${interactiveMs.toFixed(0)} ms; bundle ${JSON.stringify(sizes)}; ${expected} credits spent as shown\n`);
      await context.close();
    });
  });
});
