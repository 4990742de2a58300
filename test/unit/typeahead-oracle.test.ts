import { describe, expect, it } from 'vitest';
import { ConsistencyOracle, keystrokeFigures, keystrokesTo, typingScripts, type Home } from '../support/typeahead.ts';

const H = (uprn: number, saon: string | null, paon: string, street: string, town: string, postcode: string): Home => ({
  uprn, saon, paon, street, town, locality: null, postcode, address: [saon, `${paon} ${street}`, town, postcode].filter(Boolean).join(', '),
});
const HOMES = [
  H(1, null, '12', 'HIGH STREET', 'BATH', 'BA1 1AA'),
  H(2, null, '12', 'HIGHFIELD ROAD', 'BRISTOL', 'BS16 4AB'),
  H(3, 'FLAT 3', '12', 'HIGH STREET', 'BATH', 'BA1 1AB'),
  H(4, null, '63', 'SAINT JOHNS ROAD', 'BRISTOL', 'BS1 2CD'),
  H(5, null, '6', 'MILL LANE', 'WESTON-SUPER-MARE', 'BS23 1AA'),
];

describe('ConsistencyOracle (the ceiling the keystroke figures are read against)', () => {
  const o = new ConsistencyOracle(HOMES);
  it.each([
    ['12 h', 3], // HIGH, HIGHFIELD
    ['12 high ', 2], // HIGH complete: not HIGHFIELD
    ['12 high st', 2],
    ['12 high street, bath ba1 1ab', 1],
    ['flat 3, 12 h', 1],
    ['12 high rd', 0], // RD stands for ROAD, and HIGH ROAD is not a home here
    ['12 highfield rd', 1],
    ['6', 2], // 6 and 63
    ['6 ', 1],
    ['63 st johns', 1], // ST stands for SAINT too
    ['6 mill lane weston-', 1],
    ['bristol bs1', 2], // BS16 and BS1 being typed
    ['bristol bs1 ', 1],
    ['12 12', 0], // a word is not used twice
  ])('%s: %i consistent', (q, n) => expect(o.count(q)).toBe(n));

  it('caps the count, and knows each home', () => {
    expect(o.count('b', 2)).toBe(2);
    expect(o.consistent(0, '12 high st')).toBe(true);
    expect(o.consistent(1, '12 high st')).toBe(false);
  });
});

describe('keystroke figures', () => {
  it('keystrokes from which the target stays under k, counted from the third character', () => {
    expect(keystrokesTo([-1, 3, 0, 0], 1)).toBe(5);
    expect(keystrokesTo([-1, 3, 0, 0], 5)).toBe(4);
    expect(keystrokesTo([0, 6, 0], 1)).toBe(5);
    expect(keystrokesTo([0, 0, 1], 1)).toBe(Infinity);
  });

  it('medians, p90 (never when more than a tenth are never found), stays-in-top-5 and MRR', () => {
    const f = keystrokeFigures([
      { uprn: 1, rank: [2, 0, 0], emptyWhileConsistent: 0 },
      { uprn: 2, rank: [0, 7, 0], emptyWhileConsistent: 1 },
      { uprn: 3, rank: [-1, -1, 1], emptyWhileConsistent: 0 },
    ]);
    expect(f.top1).toEqual({ median: 5, p90: null, never: 0.3333 }); // 4, 5, never
    expect(f.top5).toEqual({ median: 5, p90: 5, never: 0 }); // 3, 5, 5
    expect(f.stays_top5_once_first).toBe(0.5);
    expect(f.mrr).toBe(Math.round(((1 + 1 + 0.5) / 3) * 10_000) / 10_000);
    expect(f.empty_while_consistent).toBe(1);
  });

  it('types each target once, the meant text being the typed one without its typo', () => {
    const s = typingScripts(HOMES, 5, 3);
    expect(new Set(s.map((x) => x.uprn)).size).toBe(5);
    for (const x of s) {
      expect(x.typed.length).toBeGreaterThan(0);
      if (x.kind !== 'typo') expect(x.typed).toBe(x.meant);
      expect(o2.consistent(HOMES.findIndex((h) => h.uprn === x.uprn), x.meant)).toBe(true);
    }
  });
});
const o2 = new ConsistencyOracle(HOMES);
