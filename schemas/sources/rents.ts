import { z } from 'zod';
import { isoDate, num, optNum, optStr, postcode, str } from './fields.ts';

/**
 * ONS private rental market statistics, as CSV. The ONS/VOA tables are published as
 * spreadsheets with one sheet per bedroom category; our CSV layout is those sheets stacked,
 * with the sheet name as the `Bedroom Category` column (docs/sources/rents.md).
 */
export const ONS_RENTS_HEADER = [
  'LA Code1', 'Area Code1', 'Area', 'Bedroom Category', 'Count of rents',
  'Mean', 'Lower quartile', 'Median', 'Upper quartile',
] as const;

/** Published category label → our category code and bedroom count (null: not a bedroom count). */
export const ONS_RENTS_CATEGORIES = {
  'Room': { category: 'room', bedrooms: null },
  'Studio': { category: 'studio', bedrooms: 0 },
  'One Bedroom': { category: '1', bedrooms: 1 },
  'Two Bedrooms': { category: '2', bedrooms: 2 },
  'Three Bedrooms': { category: '3', bedrooms: 3 },
  'Four or more Bedrooms': { category: '4+', bedrooms: 4 },
  'All categories': { category: 'all', bedrooms: null },
} as const;
export type OnsRentsCategoryLabel = keyof typeof ONS_RENTS_CATEGORIES;

/** How the published tables write a suppressed or unavailable cell. */
export const ONS_SUPPRESSED_MARKERS = ['.', '..', '-', 'x'] as const;

const rent = () => optNum().pipe(z.number().positive().optional());

/** Monthly rents (GBP per calendar month) for one area and bedroom category. */
export const OnsRentsRow = z.object({
  la_code: optStr(),
  area_code: str(),
  area_name: str(),
  category: z.enum(['room', 'studio', '1', '2', '3', '4+', 'all']),
  bedrooms: z.number().int().min(0).max(4).nullable(),
  count: optNum().pipe(z.number().int().nonnegative().optional()),
  mean: rent(),
  lower_quartile: rent(),
  median: num().pipe(z.number().positive()),
  upper_quartile: rent(),
});
export type OnsRentsRow = z.infer<typeof OnsRentsRow>;

/**
 * Rental evidence: lets agreed by letting agents, licensed by the operator. Our own
 * definition (docs/sources/rents.md): one let per row, rent per calendar month in GBP.
 */
export const RENTAL_EVIDENCE_HEADER = [
  'evidence_id', 'let_date', 'address', 'postcode', 'uprn', 'property_type',
  'bedrooms', 'let_type', 'rent_pcm', 'furnished', 'source',
] as const;

export const RENTAL_PROPERTY_TYPES = ['house', 'flat'] as const;
export const RENTAL_LET_TYPES = ['whole', 'room'] as const;
export const RENTAL_FURNISHED = ['furnished', 'part', 'unfurnished'] as const;

/** True when a `YYYY-MM-DD` string names a day that exists (not 2024-02-30). */
function realDay(iso: string): boolean {
  const t = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === iso;
}

/**
 * For a `room` let, `bedrooms` is the bedroom count of the whole shared property (so at
 * least 2) and `rent_pcm` is the rent of the one room.
 */
export const RentalEvidenceRow = z.object({
  evidence_id: str(),
  let_date: isoDate().refine(realDay, 'no such day'),
  address: str(),
  postcode: postcode(),
  uprn: optNum().pipe(z.number().int().positive().max(999_999_999_999).optional()),
  property_type: z.enum(RENTAL_PROPERTY_TYPES),
  bedrooms: num().pipe(z.number().int().min(0).max(20)),
  let_type: z.enum(RENTAL_LET_TYPES),
  rent_pcm: num().pipe(z.number().positive().max(100_000)),
  furnished: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.enum(RENTAL_FURNISHED).optional()),
  source: optStr(),
}).refine((r) => r.let_type !== 'room' || r.bedrooms >= 2, {
  message: 'a room let needs a shared property of at least 2 bedrooms',
  path: ['bedrooms'],
});
export type RentalEvidenceRow = z.infer<typeof RentalEvidenceRow>;
