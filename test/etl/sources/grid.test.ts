import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haversineM, measureGridAccuracy } from '../../../bench/grid-accuracy.ts';
import { bngToWgs84, wgs84ToBng } from '../../../etl/sources/grid.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

// OS "A guide to coordinate systems in Great Britain" / Transformations and OSGM15 user guide,
// Annex A worked example (Caister water tower): ETRS89 position and its OSTN15 grid reference.
// ETRS89 and WGS84 agree to well under a metre, below what the Helmert shift can resolve.
const CAISTER = { lat: 52.658007833, lng: 1.716073973, easting: 651409.804, northing: 313177.45 };

describe('bngToWgs84 / wgs84ToBng', () => {
  it('matches the OS published Caister water tower example within the Helmert accuracy (a few metres)', () => {
    const en = wgs84ToBng(CAISTER.lat, CAISTER.lng);
    const offGrid = Math.hypot(en.easting - CAISTER.easting, en.northing - CAISTER.northing);
    expect(offGrid).toBeLessThan(5); // measured 3.45 m against OSTN15
    expect(offGrid).toBeGreaterThan(0.5); // a Helmert shift is not OSTN15: equality would mean a different transformation

    const ll = bngToWgs84(CAISTER.easting, CAISTER.northing);
    expect(haversineM(ll.lat, ll.lng, CAISTER.lat, CAISTER.lng)).toBeLessThan(5);
  });

  it('lands ONSPD grid references in England within 2 m of ONSPD lat/long', () => {
    // M1 1AD and SE1 2DL from the ONSPD sample (grid reference, lat, long).
    for (const [e, n, lat, lng] of [
      [383848, 398589, 53.483784, -2.244866],
      [533951, 179544, 51.498972, -0.071609],
    ] as const) {
      const p = bngToWgs84(e, n);
      expect(haversineM(p.lat, p.lng, lat, lng)).toBeLessThan(2);
    }
  });

  it('applies the datum shift: easting 400000 is 2°W on OSGB36 but about 95 m west of it on WGS84', () => {
    // Without the Helmert shift (projection only) the result would be exactly -2.
    const p = bngToWgs84(400_000, 173_000);
    expect(p.lng).toBeLessThan(-2 - 0.0005);
    expect(p.lng).toBeGreaterThan(-2 - 0.003);
  });

  it('round-trips BNG -> WGS84 -> BNG within 5 mm anywhere on the grid', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 700_000, noNaN: true }),
        fc.double({ min: 0, max: 1_300_000, noNaN: true }),
        (e, n) => {
          const p = bngToWgs84(e, n);
          const q = wgs84ToBng(p.lat, p.lng);
          expect(Math.hypot(q.easting - e, q.northing - n)).toBeLessThan(0.005); // measured worst 1.1 mm
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses non-finite input and positions with no place on the grid', () => {
    expect(() => bngToWgs84(Number.NaN, 1)).toThrow(RangeError);
    expect(() => bngToWgs84(1, Number.POSITIVE_INFINITY)).toThrow(/finite/);
    expect(() => bngToWgs84(1e9, 1e9)).toThrow(/no position on the National Grid/);
    expect(() => wgs84ToBng(Number.NaN, 0)).toThrow(RangeError);
    expect(() => wgs84ToBng(91, 0)).toThrow(/latitude must be in/);
    expect(() => wgs84ToBng(51, -181)).toThrow(/longitude/);
  });
});

describe('haversineM', () => {
  it('measures known distances', () => {
    expect(haversineM(51.5, -0.1, 51.5, -0.1)).toBe(0);
    // One degree of latitude on the mean-radius sphere is 111,195 m.
    expect(haversineM(51, 0, 52, 0)).toBeCloseTo(111_195, 0);
  });
});

const ONSPD = 'postcodes/onspd_sample_postcodesio/postcode.csv.gz';
describe.skipIf(!hasRaw(ONSPD))('accuracy against ONSPD lat/long (real sample, Aberdeen)', () => {
  it('stays within the measured error bounds', async () => {
    const acc = await measureGridAccuracy(rawPath(ONSPD));
    // Measured (npx tsx bench/grid-accuracy.ts): 8,046 rows, median 0.036 m, p95 1.771 m,
    // max 1,069 m (AB10 7GN, a row whose grid reference and lat/long disagree in the source).
    expect(acc.compared).toBe(8046);
    expect(acc.median).toBeLessThan(0.1);
    expect(acc.p95).toBeLessThan(2.5);
    expect(acc.max).toBeLessThan(1200);
    expect(acc.worst).toBe('AB10 7GN');
  });

  it('fails loudly on a file with no comparable rows', async () => {
    const tmp = tempDir();
    try {
      const header = 'pcd7,pcds,dointr,doterm,oseast1m,osnrth1m,osgrdind,lat,long,ctry,oslaua,osward,rgn,pcon,lsoa21,msoa21,imd\n';
      const p = writeFixture(tmp.dir, 'none.csv', header + 'JE2 4WD,JE2 4WD,199507,,,,9,99.999999,0.000000,L93000001,,,,,,,0\n');
      await expect(measureGridAccuracy(p)).rejects.toThrow(/no rows with both/);
    } finally {
      tmp.cleanup();
    }
  });
});
