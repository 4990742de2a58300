import { describe, expect, it } from 'vitest';
import { seededRandom as rng } from '../support/chaos.ts';
import { groupEffects, typeEffects } from '../../lib/valuation/sale-model.ts';

/** The median as the textbook has it: sort a copy, the middle one or the mean of the middle two. */
function med(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** The effects written plainly, an array per group and category (what the functions computed before they laid the values out in one array). */
function plainTypeEffects(c: { areaSqft: number[]; type: number[]; group: number[]; logValue: number[] }, beta: number): number[] {
  const by = new Map<number, number[][]>();
  c.areaSqft.forEach((a, i) => {
    if (!(a > 0) || c.type[i]! >= 4) return;
    if (!by.has(c.group[i]!)) by.set(c.group[i]!, [[], [], [], []]);
    by.get(c.group[i]!)![c.type[i]!]!.push(c.logValue[i]! - (1 - beta) * Math.log(a));
  });
  const diffs: number[][] = [[], [], [], []];
  for (const g of by.values()) {
    if (g[1]!.length < 5) continue;
    for (let t = 0; t < 4; t++) if (g[t]!.length >= 5) diffs[t]!.push(med(g[t]!) - med(g[1]!));
  }
  return diffs.map((d, t) => (t === 1 || !d.length ? 0 : med(d)));
}

function plainGroupEffects(group: number[], cat: number[], k: number, level: number[]): number[] {
  const by = new Map<number, { all: number[]; per: number[][] }>();
  level.forEach((v, i) => {
    if (Number.isNaN(v) || cat[i]! >= k) return;
    if (!by.has(group[i]!)) by.set(group[i]!, { all: [], per: Array.from({ length: k }, () => []) });
    by.get(group[i]!)!.all.push(v);
    by.get(group[i]!)!.per[cat[i]!]!.push(v);
  });
  const diffs: number[][] = Array.from({ length: k }, () => []);
  for (const g of by.values()) for (let c = 0; c < k; c++) if (g.per[c]!.length >= 5) diffs[c]!.push(med(g.per[c]!) - med(g.all));
  return diffs.map((d) => (d.length ? med(d) : 0));
}

describe('the sale model\'s type and age effects', () => {
  it('by hand: two groups, the type effect the median over groups of each type\'s median less the Semi-Detached one', () => {
    // Group 7: Semi-Detached level 5.0 (five sales), Detached 5.3 (five); group 2: Semi 4.0, Detached 4.1, Flat 3.5 (four: too few).
    // beta 1: the area term is 0, so the size-adjusted value is the log value.
    const rows: [number, number, number][] = [
      ...Array.from({ length: 5 }, () => [7, 1, 5.0] as [number, number, number]), ...Array.from({ length: 5 }, () => [7, 0, 5.3] as [number, number, number]),
      ...Array.from({ length: 5 }, () => [2, 1, 4.0] as [number, number, number]), ...Array.from({ length: 5 }, () => [2, 0, 4.1] as [number, number, number]),
      ...Array.from({ length: 4 }, () => [2, 3, 3.5] as [number, number, number]),
    ];
    const eff = typeEffects({ areaSqft: rows.map(() => 900), type: rows.map((r) => r[1]), group: rows.map((r) => r[0]), logValue: rows.map((r) => r[2]) }, 1);
    // Detached: the median of 0.3 and 0.1 is 0.2; Semi-Detached 0 by definition; Terraced and Flat: no group with five.
    expect(Array.from(eff).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0.2, 0, 0, 0]);
    // Age effects over the same rows, the category being the type: group 7's median is 5.15, group 2's 4.0 (14 rows).
    const age = groupEffects(rows.map((r) => r[0]), rows.map((r) => r[1]), 4, rows.map((r) => r[2]));
    // Detached: median(5.3 - 5.15, 4.1 - 4.0) = 0.125; Semi: median(5.0 - 5.15, 4.0 - 4.0) = -0.075.
    expect(Array.from(age).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0.125, -0.075, 0, 0]);
  });

  it('are the plain per-group computation\'s doubles over 60,000 seeded sales in 400 groups, with unknown areas, unknown types, NaN levels and thin groups', () => {
    const r = rng(46);
    const n = 60_000;
    const c = { areaSqft: [] as number[], type: [] as number[], group: [] as number[], logValue: [] as number[], age: [] as number[] };
    for (let i = 0; i < n; i++) {
      const g = Math.floor(r() ** 2 * 400); // a few big groups, many thin ones
      c.group.push(g * 3 - 50); // ids need not be dense or positive
      c.type.push(r() < 0.05 ? 255 : Math.floor(r() * 4));
      c.areaSqft.push(r() < 0.1 ? NaN : r() < 0.02 ? 0 : 400 + r() * 2000);
      c.age.push(r() < 0.1 ? 200 : Math.floor(r() * 9));
      c.logValue.push(12 + g / 400 + c.type[i]! * 0.05 + (r() - 0.5) * 0.4);
    }
    const beta = 0.6;
    const eff = typeEffects(c, beta);
    const want = plainTypeEffects(c, beta);
    expect(Array.from(eff)).toEqual(want);
    expect(want.filter((v) => v !== 0).length).toBe(3); // every type but the reference has an effect
    const level = c.logValue.map((v, i) => (c.areaSqft[i]! > 0 ? v - (1 - beta) * Math.log(c.areaSqft[i]!) - (c.type[i]! < 4 ? eff[c.type[i]!]! : 0) : NaN));
    const age = groupEffects(Int32Array.from(c.group), Uint8Array.from(c.age), 9, Float64Array.from(level));
    expect(Array.from(age)).toEqual(plainGroupEffects(c.group, c.age, 9, level));
    expect(Array.from(age).filter((v) => v !== 0).length).toBeGreaterThan(5);
  });

  it('without a group of five: no effects', () => {
    expect(Array.from(typeEffects({ areaSqft: [900, 900], type: [1, 0], group: [1, 1], logValue: [5, 6] }, 0.5))).toEqual([0, 0, 0, 0]);
    expect(Array.from(groupEffects([], [], 3, []))).toEqual([0, 0, 0]);
  });
});
