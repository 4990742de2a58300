import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { FILES, TRUTH } from '../../../etl/synth/generate.ts';
import { stagedContext } from '../../support/region.ts';

/**
 * Scottish certificates end to end on a small synthetic region: the Scottish register's
 * extract is discovered, staged, linked to UPRNs (its OSG reference, else the address match)
 * and reaches the property record. Expectations come from the raw file and the truth files,
 * parsed here without the ETL's reader.
 */
let ctx: BuildContext;
const q = async (sql: string) => (await ctx.conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, any>[];

type Raw = Record<string, string>;
let certs: Raw[];
let truth: Map<string, Raw>;
let homes: Map<string, Raw>;

beforeAll(async () => {
  ctx = await stagedContext(2000, 11);
  const csv = (rel: string, fromLine = 1): Raw[] =>
    parse(readFileSync(join(ctx.sourcesDir, rel)), { bom: true, columns: true, from_line: fromLine, relax_column_count: true });
  truth = new Map(csv(TRUTH.scottishCertificates).map((t) => [t.report_reference_number!, t]));
  // The extract's first row is descriptive; the column names are on the second. The planted bad rows are in no truth.
  certs = csv(FILES.epcScotland, 2).filter((r) => truth.has(r.REPORT_REFERENCE_NUMBER!));
  homes = new Map(csv(TRUTH.properties).map((p) => [p.uprn!, p]));
}, 180_000);

afterAll(() => ctx?.conn.closeSync());

describe('Scottish EPC certificates through the ETL', () => {
  it('stages the extract as epc_scotland with its planted rows rejected by reason', async () => {
    const report = ctx.sources.find((s) => s.name === 'epc_scotland')!;
    const expected = JSON.parse(readFileSync(join(ctx.sourcesDir, TRUTH.expectedRejects), 'utf8'))[FILES.epcScotland];
    expect(report.path).toBe(FILES.epcScotland);
    expect(report.rejected_by_reason).toEqual(expected);
    expect(report.rows_read).toBe(certs.length);
  });

  it('links every certificate to its own home: the OSG reference, else the address match; none to a wrong home', async () => {
    const linked = new Map((await q(`SELECT certificate_id, uprn::VARCHAR AS uprn, uprn_source FROM epc_linked WHERE country = 'Scotland'`))
      .map((r) => [r.certificate_id as string, r]));
    expect(linked.size).toBe(certs.length);
    let noOsg = 0;
    let matched = 0;
    for (const c of certs) {
      const t = truth.get(c.REPORT_REFERENCE_NUMBER!)!;
      const l = linked.get(c.REPORT_REFERENCE_NUMBER!)!;
      if (c.OSG_REFERENCE_NUMBER) {
        expect(l).toMatchObject({ uprn: t.true_uprn, uprn_source: 'certificate' });
      } else {
        noOsg++;
        if (l.uprn !== null) {
          expect(l).toMatchObject({ uprn: t.true_uprn, uprn_source: 'address_match' });
          matched++;
        }
      }
    }
    expect(noOsg).toBeGreaterThan(0);
    expect(matched / noOsg).toBeGreaterThanOrEqual(0.8);
  });

  it('a Scottish home\'s property record has its latest certificate\'s rating, floor area, rooms and bedrooms', async () => {
    const byHome = new Map<string, Raw[]>();
    for (const c of certs) {
      const u = truth.get(c.REPORT_REFERENCE_NUMBER!)!.true_uprn!;
      byHome.set(u, [...(byHome.get(u) ?? []), c]);
    }
    const props = new Map((await q(`SELECT uprn::VARCHAR AS uprn, epc_current_rating, floor_area_m2, habitable_rooms, bedrooms, property_type
      FROM properties WHERE country = 'Scotland'`)).map((p) => [p.uprn as string, p]));
    let checked = 0;
    for (const [uprn, list] of byHome) {
      // Homes whose certificates all carry their UPRN and have distinct lodgement dates: no matching or tie involved.
      const dates = new Set(list.map((c) => c.LODGEMENT_DATE));
      if (list.some((c) => !c.OSG_REFERENCE_NUMBER) || dates.size < list.length) continue;
      const newest = [...list].sort((a, b) => b.LODGEMENT_DATE!.localeCompare(a.LODGEMENT_DATE!));
      const withArea = newest.find((c) => Number(c.TOTAL_FLOOR_AREA) > 0);
      const rooms = Number(homes.get(uprn)!.habitable_rooms);
      const flat = ['Flat', 'Maisonette'].includes(newest.find((c) => c.PROPERTY_TYPE)!.PROPERTY_TYPE!);
      const p = props.get(uprn)!;
      expect(p.epc_current_rating, uprn).toBe(newest[0]!.CURRENT_ENERGY_RATING);
      expect(p.floor_area_m2, uprn).toBe(withArea ? Number(withArea.TOTAL_FLOOR_AREA) : null);
      expect(p.habitable_rooms, uprn).toBe(rooms);
      expect(p.bedrooms, uprn).toBe(flat || rooms <= 4 ? Math.max(1, rooms - 1) : rooms - 2);
      checked++;
    }
    expect(checked).toBeGreaterThan(200);
    // Scottish homes without a certificate still have no EPC fields.
    const certified = new Set(byHome.keys());
    const bare = [...props.values()].filter((p) => !certified.has(p.uprn));
    expect(bare.length).toBeGreaterThan(0);
    for (const p of bare) expect([p.epc_current_rating, p.floor_area_m2, p.bedrooms]).toEqual([null, null, null]);
  });
});
