import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAddressBase } from '../../../etl/sources/addressbase/read.ts';
import { readAirbnbCalendar } from '../../../etl/sources/airbnb_calendar/read.ts';
import { readAirbnbListings } from '../../../etl/sources/airbnb_listings/read.ts';
import { readAirbnbReviews } from '../../../etl/sources/airbnb_reviews/read.ts';
import { readEpc } from '../../../etl/sources/epc/read.ts';
import { readScottishEpc } from '../../../etl/sources/epc_scotland/read.ts';
import { readHmoRegister } from '../../../etl/sources/hmo_register/read.ts';
import { readOnsRents } from '../../../etl/sources/ons_rents/read.ts';
import { readOnspd } from '../../../etl/sources/onspd/read.ts';
import { readOsUprn } from '../../../etl/sources/os_uprn/read.ts';
import { readPlanningGeoJson } from '../../../etl/sources/planning/read.ts';
import { readPricePaid } from '../../../etl/sources/price_paid/read.ts';
import { RejectLog } from '../../../etl/sources/rejects.ts';
import { readRentalEvidence } from '../../../etl/sources/rental_evidence/read.ts';
import { readUkHpi } from '../../../etl/sources/ukhpi/read.ts';
import { FILES, generateRegion, LOCATED_DIRS, TRUTH, type Manifest } from '../../../etl/synth/generate.ts';
import { tempDir } from '../../support/tmp.ts';

// Every generated file goes through the project's own reader: the only rejects allowed
// are the rows the generator planted, counted exactly; every other row must read back.
const tmp = tempDir('pi-synth-rt-');
afterAll(tmp.cleanup);

type Reader = (path: string, rejects: RejectLog) => AsyncGenerator<unknown>;
const READERS: Record<string, Reader> = {
  [FILES.addressbase]: readAddressBase,
  [FILES.uprn]: readOsUprn,
  [FILES.onspd]: readOnspd,
  [FILES.epc]: readEpc,
  [FILES.epcScotland]: readScottishEpc,
  [FILES.ppd]: readPricePaid,
  [FILES.ppdUpdate]: readPricePaid,
  [FILES.listings]: readAirbnbListings,
  [FILES.calendar]: readAirbnbCalendar,
  [FILES.reviews]: readAirbnbReviews,
  [FILES.flood]: readPlanningGeoJson,
  [FILES.conservation]: readPlanningGeoJson,
  [FILES.article4]: readPlanningGeoJson,
  [FILES.hpi]: readUkHpi,
  [FILES.onsRents]: readOnsRents,
  [FILES.evidence]: readRentalEvidence,
  [FILES.hmo]: readHmoRegister,
};

let manifest: Manifest;
let expected: Record<string, Record<string, number>>;
const read = new Map<string, { rows: any[]; rejects: RejectLog }>();

beforeAll(async () => {
  ({ manifest } = await generateRegion({ out: tmp.dir, addresses: 2000, seed: 7 }));
  expected = JSON.parse(readFileSync(join(tmp.dir, TRUTH.expectedRejects), 'utf8'));
  for (const [rel, reader] of Object.entries(READERS)) {
    const rejects = new RejectLog();
    const rows: any[] = [];
    for await (const r of reader(join(tmp.dir, rel), rejects)) rows.push(r);
    read.set(rel, { rows, rejects });
  }
}, 120_000);

describe('synthetic region round trip through the readers', () => {
  it('writes every source file the ETL looks for', () => {
    // The location sources' files are checked in located-sources.test.ts.
    const fixed = Object.keys(manifest.files).filter((f) => !LOCATED_DIRS.some((d) => f.startsWith(d)));
    expect(fixed.sort()).toEqual(Object.values(FILES).sort());
  });

  for (const rel of Object.values(FILES)) {
    it(`${rel}: rejects exactly the planted rows, reads back every other row`, () => {
      const { rows, rejects } = read.get(rel)!;
      const planted = expected[rel] ?? {};
      expect(rejects.toJSON().by_reason).toEqual(planted);
      const nPlanted = Object.values(planted).reduce((a, b) => a + b, 0);
      expect(nPlanted).toBeGreaterThan(0);
      expect(rows.length + rejects.total).toBe(manifest.files[rel]!.rows);
      expect(rows.length).toBeGreaterThan(0);
    });
  }

  it('Price Paid: median price in a UK range, repeat sales, new builds, and a monthly update with A, C and D', () => {
    const rows = read.get(FILES.ppd)!.rows;
    const prices = rows.map((r) => r.price).sort((a, b) => a - b);
    const median = prices[Math.floor(prices.length / 2)];
    expect(median).toBeGreaterThan(100_000);
    expect(median).toBeLessThan(450_000);
    expect(rows.some((r) => r.new_build)).toBe(true);
    expect(new Set(rows.map((r) => r.date.slice(0, 4))).size).toBeGreaterThanOrEqual(25);
    const upd = read.get(FILES.ppdUpdate)!.rows;
    expect(new Set(upd.map((r) => r.record_status))).toEqual(new Set(['A', 'C', 'D']));
    const complete = new Set(rows.map((r) => r.transaction_id));
    for (const r of upd) expect(complete.has(r.transaction_id)).toBe(r.record_status !== 'A');
  });

  it('EPC: floor areas plausible, some missing, several certificates per UPRN, some without UPRN', () => {
    const rows = read.get(FILES.epc)!.rows;
    const areas = rows.map((r) => r.total_floor_area_m2).filter((a) => a !== undefined).sort((a, b) => a - b);
    expect(areas[Math.floor(areas.length / 2)]).toBeGreaterThan(50);
    expect(areas[Math.floor(areas.length / 2)]).toBeLessThan(120);
    expect(areas.length).toBeLessThan(rows.length);
    const perUprn = new Map<number, number>();
    for (const r of rows) if (r.uprn) perUprn.set(r.uprn, (perUprn.get(r.uprn) ?? 0) + 1);
    expect([...perUprn.values()].some((n) => n >= 3)).toBe(true);
    expect(rows.some((r) => r.uprn === undefined)).toBe(true);
    // Scotland has its own register: no Scottish postcodes on certificates.
    expect(rows.some((r) => r.postcode?.startsWith('EH'))).toBe(false);
  });

  it('Scottish EPC: every certificate is in the truth file, of a Scottish home, with its rooms, rating and floor area', () => {
    const rows = read.get(FILES.epcScotland)!.rows;
    const csvRows = (rel: string) => {
      const [head, ...lines] = readFileSync(join(tmp.dir, rel), 'utf8').trim().split('\n');
      const h = head!.split(',');
      return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [h[i]!, v])));
    };
    const truth = new Map(csvRows(TRUTH.scottishCertificates).map((t) => [t.report_reference_number!, t]));
    const homes = new Map(csvRows(TRUTH.properties).map((p) => [Number(p.uprn), p]));
    expect(rows.length).toBe(truth.size);
    let osg = 0;
    for (const r of rows) {
      const t = truth.get(r.certificate_id)!;
      const home = homes.get(Number(t.true_uprn))!;
      expect(home.country).toBe('S');
      expect(r.country).toBe('Scotland');
      expect(r.postcode).toBe(home.postcode);
      expect(r.uprn).toBe(t.osg_written === '1' ? Number(t.true_uprn) : undefined);
      if (r.uprn) osg++;
      expect(r.lodgement_date).toBe(t.lodgement_date);
      expect(r.lodgement_date >= '2013-01-01').toBe(true);
      expect(r.number_habitable_rooms).toBe(Number(home.habitable_rooms));
      // Older certificates may read one band worse than today's.
      const band = 'ABCDEFG'.indexOf(r.current_energy_rating) - 'ABCDEFG'.indexOf(home.epc_band!);
      expect(band === 0 || band === 1).toBe(true);
      if (r.total_floor_area_m2 !== undefined) expect(Math.abs(Math.log(r.total_floor_area_m2 / Number(home.floor_area_m2)))).toBeLessThan(0.25);
    }
    // About 3% without an OSG reference (left to address matching); about 55-60% of homes certified, as in Scotland.
    expect(osg / rows.length).toBeGreaterThan(0.9);
    expect(osg).toBeLessThan(rows.length);
    const scottish = [...homes.values()].filter((p) => p.country === 'S').length;
    const certified = new Set([...truth.values()].map((t) => t.true_uprn)).size;
    expect(certified / scottish).toBeGreaterThan(0.45);
    expect(certified / scottish).toBeLessThan(0.7);
  });

  it('every EPC and address-base UPRN is in OS Open UPRN; postcodes include terminated ones in three countries', () => {
    const uprns = new Set(read.get(FILES.uprn)!.rows.map((r) => r.uprn));
    for (const r of read.get(FILES.addressbase)!.rows) expect(uprns.has(r.uprn)).toBe(true);
    for (const r of read.get(FILES.epc)!.rows) if (r.uprn) expect(uprns.has(r.uprn)).toBe(true);
    const pcs = read.get(FILES.onspd)!.rows;
    expect(new Set(pcs.map((r) => r.country))).toEqual(new Set(['England', 'Wales', 'Scotland']));
    expect(pcs.some((r) => r.terminated)).toBe(true);
    const live = new Set(pcs.filter((r) => !r.terminated).map((r) => r.pcds));
    for (const r of read.get(FILES.addressbase)!.rows) expect(live.has(r.postcode)).toBe(true);
  });

  it('Airbnb: big ids, $ prices in a nightly range, some empty, calendar of 365 days with empty prices', () => {
    const ls = read.get(FILES.listings)!.rows;
    expect(ls.some((l) => BigInt(l.id) > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
    const prices = ls.map((l) => l.price_gbp).filter((p) => p !== undefined).sort((a, b) => a - b);
    expect(prices.length).toBeLessThan(ls.length);
    const med = prices[Math.floor(prices.length / 2)];
    expect(med).toBeGreaterThan(40);
    expect(med).toBeLessThan(300);
    const cal = read.get(FILES.calendar)!.rows;
    expect(cal.length).toBe(ls.length * 365);
    expect(cal.every((c) => c.price_gbp === undefined)).toBe(true);
    const reviews = read.get(FILES.reviews)!.rows;
    expect(reviews.some((r) => /[\r\n]/.test(r.comments ?? ''))).toBe(true);
    const byListing = new Map<string, number>();
    for (const r of reviews) byListing.set(r.listing_id, (byListing.get(r.listing_id) ?? 0) + 1);
    for (const l of ls) expect(byListing.get(l.id) ?? 0).toBe(l.number_of_reviews);
  });

  it('planning: flood zones 2 and 3, holes and multipolygons', () => {
    const flood = read.get(FILES.flood)!.rows;
    expect(new Set(flood.map((f) => f.flood_risk_level))).toEqual(new Set([2, 3]));
    const all = [...flood, ...read.get(FILES.conservation)!.rows, ...read.get(FILES.article4)!.rows];
    expect(all.some((f) => f.geometry.type === 'MultiPolygon')).toBe(true);
    expect(all.some((f) => f.geometry.type === 'Polygon' && f.geometry.coordinates.length > 1)).toBe(true);
  });

  it('HPI and rents: the region and its countries, room rents below whole-property rents', () => {
    const hpi = read.get(FILES.hpi)!.rows;
    expect(new Set(hpi.map((r) => r.area_code))).toEqual(new Set(['E06000023', 'E07000082', 'W06000015', 'S12000036', 'E09000001', 'E09000033', 'E92000001', 'W92000004', 'S92000003']));
    expect(hpi.find((r) => r.area_code === 'E06000023' && r.month === '2023-01')?.index).toBe(100);
    const ons = read.get(FILES.onsRents)!.rows;
    const bristol = (c: string) => ons.find((r) => r.area_code === 'E06000023' && r.category === c)!.median;
    expect(bristol('room')).toBeLessThan(bristol('2'));
    const ev = read.get(FILES.evidence)!.rows;
    expect(new Set(ev.map((r) => r.let_type))).toEqual(new Set(['whole', 'room']));
  });

  it('HMO register: CR-only line endings, a licence for every HMO, some expired, a few at addresses the address base lacks', () => {
    const text = readFileSync(join(tmp.dir, FILES.hmo), 'utf8');
    expect(text.includes('\n')).toBe(false);
    const props = readFileSync(join(tmp.dir, TRUTH.properties), 'utf8').trim().split('\n');
    const hmoCol = props[0]!.split(',').indexOf('hmo');
    const hmos = props.slice(1).map((l) => l.split(',')).filter((c) => c[hmoCol] === '1').map((c) => c[0]);
    const truth = readFileSync(join(tmp.dir, TRUTH.hmoLicences), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(truth.filter((t) => t[2] === 'licence').map((t) => t[1]).sort()).toEqual([...hmos].sort());
    const unmatchable = truth.filter((t) => t[2] === 'unmatchable');
    expect(unmatchable.length).toBeGreaterThan(0);
    expect(unmatchable.every((t) => t[1] === '')).toBe(true);
    const rows = read.get(FILES.hmo)!.rows;
    expect(rows.map((r) => r.case_number).sort()).toEqual(truth.map((t) => t[0]).sort());
    const expired = rows.filter((r) => r.licence_end < manifest.today).length;
    expect(expired).toBeGreaterThan(0);
    expect(expired).toBeLessThan(rows.length / 2);
    expect(rows.some((r) => r.storeys !== undefined) && rows.some((r) => r.units !== undefined)).toBe(true);
  });

  it('ground truth: ~1–2% of sales have no UPRN, every other sale names a real address', () => {
    const text = readFileSync(join(tmp.dir, TRUTH.sales), 'utf8').trim().split('\n').slice(1);
    const noUprn = text.filter((l) => l.split(',')[1] === '').length / text.length;
    expect(noUprn).toBeGreaterThan(0.003);
    expect(noUprn).toBeLessThan(0.04);
    const ab = new Set(read.get(FILES.addressbase)!.rows.map((r) => String(r.uprn)));
    for (const l of text) {
      const u = l.split(',')[1]!;
      if (u) expect(ab.has(u)).toBe(true);
    }
  });
});
