import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { locationQuery, toLocation, UprnValue, formsText } from '../../schemas/api/location.ts';

/** The shared location rule (DESIGN.md §3) on a query that takes every form. */
const opts = { forms: ['uprn', 'sector', 'postcode', 'outcode', 'point'] as const, radius: { default: 500, max: 2000 } };
const loc = locationQuery(opts);
const schema = z.strictObject({ ...loc.shape }).superRefine(loc.refine);
const errors = (q: Record<string, string>) => {
  const r = schema.safeParse(q);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('location parameters', () => {
  it('each single form parses to its tagged location, postcodes and sectors canonical', () => {
    const at = (q: Record<string, string>) => toLocation(schema.parse(q), opts);
    expect(at({ uprn: '100023336956' })).toEqual({ kind: 'uprn', uprn: 100023336956 });
    expect(at({ postcode: 'bs14dj' })).toEqual({ kind: 'postcode', postcode: 'BS1 4DJ' });
    expect(at({ postcode: 'bs1 4' })).toEqual({ kind: 'sector', sector: 'BS1 4' });
    expect(at({ outcode: 'bs1' })).toEqual({ kind: 'outcode', outcode: 'BS1' });
    expect(at({ lat: '51.45', lng: '-2.59' })).toEqual({ kind: 'point', lat: 51.45, lng: -2.59, radius_m: 500 });
    expect(at({ lat: '51.45', lng: '-2.59', radius_m: '250' })).toEqual({ kind: 'point', lat: 51.45, lng: -2.59, radius_m: 250 });
  });

  it('conflicts are a 400 on location naming what was given', () => {
    const both = errors({ uprn: '1', postcode: 'BS1 4DJ' });
    expect(both).toEqual([{ path: 'location', message: 'give the location in exactly one way: uprn, postcode, outcode or lat+lng; got uprn and postcode' }]);
    expect(errors({ outcode: 'BS1', lat: '51.4', lng: '-2.5' })[0]!.message).toMatch(/got outcode and lat\+lng$/);
    expect(errors({})).toEqual([{ path: 'location', message: 'give the location in exactly one way: uprn, postcode, outcode or lat+lng' }]);
  });

  it('lat without lng, radius without a point, a district as a postcode and a UPRN with letters are refused', () => {
    expect(errors({ lat: '51.4' })).toContainEqual({ path: 'lng', message: 'lat and lng must be given together' });
    expect(errors({ outcode: 'BS1', radius_m: '100' })).toContainEqual({ path: 'radius_m', message: 'radius_m applies only with lat and lng' });
    expect(errors({ postcode: 'BS14' })[0]!.path).toBe('postcode');
    expect(errors({ uprn: '12a' })[0]).toEqual({ path: 'uprn', message: 'must be a UPRN: 1 to 12 digits' });
    expect(errors({ lat: '51.4', lng: '-2.5', radius_m: '2001' })[0]!.path).toBe('radius_m');
  });

  it('an endpoint without sectors takes only a full postcode; one without radius has no radius_m', () => {
    const full = locationQuery({ forms: ['uprn', 'postcode', 'point'] });
    const s = z.strictObject({ ...full.shape }).superRefine(full.refine);
    expect(s.safeParse({ postcode: 'BS1 4' }).success).toBe(false);
    expect(s.safeParse({ lat: '51.4', lng: '-2.5', radius_m: '100' }).success).toBe(false);
    expect(formsText(full.forms)).toBe('uprn, postcode or lat+lng');
  });

  it('a UPRN in a JSON body is a number or a numeric string', () => {
    expect(UprnValue.parse(100023336956)).toBe(100023336956);
    expect(UprnValue.parse('100023336956')).toBe(100023336956);
    expect(UprnValue.safeParse(1.5).success).toBe(false);
    expect(UprnValue.safeParse('x1').success).toBe(false);
  });
});

describe('a radius around any form', () => {
  it('radius_m goes with a UPRN or postcode too when the endpoint says so, its default otherwise', async () => {
    const { radiusOf } = await import('../../schemas/api/location.ts');
    const o = { forms: ['uprn', 'postcode', 'point'] as const, radius: { default: 500, max: 2000, anyForm: true } };
    const l = locationQuery(o);
    const s = z.strictObject({ ...l.shape }).superRefine(l.refine);
    expect(s.safeParse({ uprn: '1', radius_m: '800' }).success).toBe(true);
    expect(radiusOf(s.parse({ uprn: '1' }), o)).toBe(500);
    expect(s.safeParse({ uprn: '1', radius_m: '2500' }).success).toBe(false);
  });
});
