import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { homeTypeParam, houseOrApartmentParam, houseOrFlatParam, listingTypeParam } from '../../schemas/api/property-type.ts';
import { Uprn } from '../../schemas/api/common.ts';
import { TrendsQuerySchema } from '../../schemas/api/prices.ts';

const parse = (schema: z.ZodType, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? { ok: r.data } : { error: r.error.issues.map((i) => i.message).join('; ') };
};

describe('property_type parameters', () => {
  it('map every name any endpoint answers with, in any case, to the endpoint\'s own categories', () => {
    const cases: [z.ZodType, string, string][] = [
      [homeTypeParam(), 'flat', 'Flat'],
      [homeTypeParam(), 'APARTMENT', 'Flat'],
      [homeTypeParam(), 'semi detached', 'Semi-Detached'],
      [homeTypeParam(), 'Semi_Detached', 'Semi-Detached'],
      [homeTypeParam(), ' terraced ', 'Terraced'],
      [houseOrFlatParam(), 'Detached', 'house'],
      [houseOrFlatParam(), 'Flat', 'flat'],
      [houseOrFlatParam(), 'apartment', 'flat'],
      [houseOrFlatParam(), 'Bungalow', 'house'],
      [houseOrApartmentParam(), 'Flat', 'apartment'],
      [houseOrApartmentParam(), 'Terraced', 'house'],
      [houseOrApartmentParam(), 'HOUSE', 'house'],
      [listingTypeParam(), 'Semi-Detached', 'semi-detached'],
      [listingTypeParam(), 'apartment', 'flat'],
      [listingTypeParam(), 'Other', 'other'],
    ];
    for (const [schema, given, expected] of cases) expect(parse(schema, given), given).toEqual({ ok: expected });
  });

  it('refuse only a name with no mapping there, saying what is accepted', () => {
    expect(parse(homeTypeParam(), 'house')).toEqual({
      error: 'property_type "house" has no match here; accepted: Detached, Semi-Detached, Terraced, Flat (any case; also apartment, maisonette)',
    });
    expect(parse(listingTypeParam(), 'house').error).toContain('accepted: detached, semi-detached, terraced, flat, bungalow, other');
    expect(parse(houseOrFlatParam(), 'castle')).toEqual({
      error: 'property_type "castle" has no match here; accepted: house, flat (any case; also detached, semi-detached, terraced, bungalow, apartment, maisonette)',
    });
    expect(parse(houseOrApartmentParam(), 'other').error).toContain('has no match here');
  });

  it('a request schema gives the handler the mapped category', () => {
    const r = TrendsQuerySchema.safeParse({ local_authority: 'E06000023', property_type: 'flat' });
    expect(r.success && r.data.property_type).toBe('Flat');
  });
});

describe('uprn parameters', () => {
  it('take a number or a numeric string, and refuse anything else', () => {
    expect(parse(Uprn, '200000005')).toEqual({ ok: 200000005 });
    expect(parse(Uprn, 200000005)).toEqual({ ok: 200000005 });
    expect(parse(Uprn, '999999999999')).toEqual({ ok: 999999999999 });
    for (const bad of ['12a', '1e5', '', '1234567890123', -1, 1.5, 1_000_000_000_000]) {
      expect(parse(Uprn, bad), String(bad)).toEqual({ error: 'must be a UPRN: 1 to 12 digits' });
    }
  });
});
