import { describe, expect, it } from 'vitest';
import { NEAREST_POSTCODE_MAX_M, PointCountry, pointCoverage } from '../../service/location/point-country.ts';

// Metres per degree of latitude (the module's local projection uses 110,540).
const M_PER_DEG_LAT = 110_540;

describe('PointCountry: a point takes the country of the nearest postcode centroid within 2 km', () => {
  // Two centroids 1 km apart north-south on the Welsh border meridian: Wales to the south.
  const lat0 = 51.6;
  const step = 1_000 / M_PER_DEG_LAT;
  const pc = PointCountry.build([lat0, lat0 + step], [-3.0, -3.0], ['Wales', 'England']);

  it('nearest wins, with its distance', () => {
    expect(pc.at(lat0 + 0.2 * step, -3.0)).toEqual({ country: 'Wales', distance_m: 200 });
    expect(pc.at(lat0 + 0.8 * step, -3.0)).toEqual({ country: 'England', distance_m: 200 });
  });

  it('farther than 2 km from every centroid: unknown', () => {
    expect(NEAREST_POSTCODE_MAX_M).toBe(2_000);
    expect(pc.at(lat0 - 1_900 / M_PER_DEG_LAT, -3.0)?.country).toBe('Wales');
    expect(pc.at(lat0 - 2_100 / M_PER_DEG_LAT, -3.0)).toBeNull();
  });

  it('no postcodes at all: unknown, and the coverage says the country is not known', () => {
    const none = PointCountry.build([], [], []);
    expect(none.at(lat0, -3.0)).toBeNull();
    expect(pointCoverage(none, lat0, -3.0)).toMatchObject({ area: 'England', covered: null });
  });

  it('coverage: a Welsh point is not covered and says why and how its country was found; an English one is', () => {
    const w = pointCoverage(pc, lat0, -3.0);
    expect(w.covered).toBe(false);
    expect(w.note).toMatch(/covers England only/);
    expect(w.note).toContain("The point's country (Wales) is the nearest postcode centroid's, 0 m away.");
    const e = pointCoverage(pc, lat0 + step, -3.0);
    expect(e).toEqual({ area: 'England', covered: true, note: "The point's country (England) is the nearest postcode centroid's, 0 m away." });
  });
});
