/**
 * One `property_type` input across the endpoints (DESIGN.md §3, "One vocabulary"). The
 * endpoints answer in different words for a home's type (Price Paid's Detached … Flat, the
 * rent lets' house|flat, the spec's STR house|apartment, the listing feeds' lower-case
 * words), so each parameter accepts every one of those names, in any case and with a space,
 * `_` or `-` between words, and maps it to the endpoint's own categories. A name with no
 * mapping there (`house` where the categories are Detached … Flat: which one?) is a 400
 * naming the accepted values.
 */
import { z } from 'zod';
import { HOME_TYPES, type HomeType } from '../property-types.ts';
import { LISTING_PROPERTY_TYPES, type ListingPropertyType } from '../sources/listings.ts';

/** Every name any endpoint uses for a property type, as normalised (lower case, words joined by `-`). */
export const PROPERTY_TYPE_NAMES = ['detached', 'semi-detached', 'terraced', 'house', 'bungalow', 'flat', 'apartment', 'maisonette', 'other'] as const;
export type PropertyTypeName = (typeof PROPERTY_TYPE_NAMES)[number];

/** `Semi Detached`, `semi_detached`, ` SEMI-DETACHED ` → `semi-detached`. */
export const normalisePropertyTypeName = (raw: string): string => raw.trim().toLowerCase().replace(/[\s_-]+/g, '-');

/**
 * A `property_type` parameter whose categories are `categories`; `mapping` says which
 * category each accepted name means. The published schema is a string with the categories
 * as its examples and the names in `x-accepts` (the vocabulary conformance test reads it).
 */
export function propertyTypeParam<C extends string>(categories: readonly C[], mapping: Partial<Record<PropertyTypeName, C>>) {
  const accepted = PROPERTY_TYPE_NAMES.filter((n) => mapping[n] !== undefined);
  const byName = new Map<string, C>(accepted.map((n) => [n, mapping[n]!]));
  const extra = accepted.filter((n) => !categories.some((c) => normalisePropertyTypeName(c) === n));
  const acceptedText = `${categories.join(', ')} (any case${extra.length ? `; also ${extra.join(', ')}` : ''})`;
  return z
    .string()
    .transform((v, ctx): C => {
      const category = byName.get(normalisePropertyTypeName(v));
      if (category !== undefined) return category;
      ctx.addIssue({ code: 'custom', message: `property_type ${JSON.stringify(v.slice(0, 40))} has no match here; accepted: ${acceptedText}` });
      return z.NEVER;
    })
    .meta({ description: `One of ${acceptedText}.`, examples: [...categories], 'x-accepts': accepted, 'x-categories': [...categories] });
}

const HOUSE_NAMES = ['detached', 'semi-detached', 'terraced', 'house', 'bungalow'] as const;
const FLAT_NAMES = ['flat', 'apartment', 'maisonette'] as const;
const twoKinds = <H extends string, F extends string>(house: H, flat: F): Partial<Record<PropertyTypeName, H | F>> => ({
  ...Object.fromEntries(HOUSE_NAMES.map((n) => [n, house])),
  ...Object.fromEntries(FLAT_NAMES.map((n) => [n, flat])),
});

/** Price Paid's four (trends, comparables): a flat by any name is a Flat; a house or bungalow names no single one. */
export const homeTypeParam = () =>
  propertyTypeParam<HomeType>(HOME_TYPES, { detached: 'Detached', 'semi-detached': 'Semi-Detached', terraced: 'Terraced', flat: 'Flat', apartment: 'Flat', maisonette: 'Flat' });
/** house|flat (rents, development GDV). */
export const houseOrFlatParam = () => propertyTypeParam(['house', 'flat'] as const, twoKinds('house', 'flat'));
/** house|apartment (the STR endpoints, per the spec). */
export const houseOrApartmentParam = () => propertyTypeParam(['house', 'apartment'] as const, twoKinds('house', 'apartment'));
/** The listing feeds' words (listings); a house names no single one. */
export const listingTypeParam = () =>
  propertyTypeParam<ListingPropertyType>(LISTING_PROPERTY_TYPES, {
    detached: 'detached', 'semi-detached': 'semi-detached', terraced: 'terraced', bungalow: 'bungalow', flat: 'flat', apartment: 'flat', maisonette: 'flat', other: 'other',
  });
