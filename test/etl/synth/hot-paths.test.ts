import { describe, expect, it } from 'vitest';
import { titleCase } from '../../../etl/synth/epc.ts';
import { csvRow } from '../../../etl/synth/out.ts';
import { buildPlanning, contains, flagsAt } from '../../../etl/synth/planning.ts';
import { rng } from '../../../etl/synth/prng.ts';
import { planRegion } from '../../../etl/synth/region.ts';

/**
 * The generator's hot paths were rewritten for speed (no regex callbacks, no map/join, a grid
 * over the planning shapes); each must give exactly what the plain version gave, since the
 * region's bytes are pinned (golden.test.ts). The plain versions are written out here.
 */
const plainTitle = (s: string) => s.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());
const plainCsvMin = (v: string | number | undefined) => {
  if (v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const plainCsvRow = (cells: (string | number | undefined)[]) => cells.map(plainCsvMin).join(',') + '\n';

describe('rewritten hot paths', () => {
  it('titleCase capitalises as the regex did, separators of every kind included', () => {
    const cases = [
      '', 'a', 'A', 'FLAT 2, 12 ALBION ROAD', 'st. mary-le-bow', 'heol-y-deri', 'x\ty\nz\u00a0w\u2003v\ufeffu', '12a high st',
      'ÉCOLE DE L’ÎLE', '--a--b', ' lead', 'trail ', 'o’brien’s', 'ΑΘΗΝΑ road', '\ud83d\ude00abc def', 'a\u2028b',
    ];
    for (const s of cases) expect(titleCase(s), JSON.stringify(s)).toBe(plainTitle(s));
  });

  it('csvRow writes what map/join with a quote test on every cell wrote', () => {
    const rows: (string | number | undefined)[][] = [
      [], [undefined], [''], [1, 'a', undefined, 2.5, -0, 1e21, 'x,y', 'say "hi"', 'two\nlines', 'cr\r', NaN],
      ['"', ',', 'plain', 0.1 + 0.2, 12345678901234567890],
    ];
    for (const r of rows) expect(csvRow(r)).toBe(plainCsvRow(r));
  });

  it('flagsAt through its grid gives the flags of testing every planning shape', () => {
    const shapes = buildPlanning(42, planRegion(50_000));
    const r = rng(42, 'flags-test');
    let inside = 0;
    for (let i = 0; i < 20_000; i++) {
      // Points in and around a shape's box (0.05° beyond it), many inside some shape.
      const s = shapes[r.int(0, shapes.length - 1)]!;
      const lng = r.uniform(s.bbox[0] - 0.05, s.bbox[2] + 0.05);
      const lat = r.uniform(s.bbox[1] - 0.05, s.bbox[3] + 0.05);
      const want = { floodZone: 0, conservation: false, article4: false };
      for (const t of shapes) {
        if (!contains(t, lng, lat)) continue;
        inside++;
        if (t.dataset === 'flood-risk-zone') want.floodZone = Math.max(want.floodZone, t.floodLevel ?? 0);
        else if (t.dataset === 'conservation-area') want.conservation = true;
        else want.article4 = true;
      }
      expect(flagsAt(shapes, lng, lat)).toEqual(want);
    }
    expect(inside).toBeGreaterThan(2_000);
  });
});
