import { AreaCodeParamsSchema, AreaSchema } from '../../../schemas/api/places.ts';
import { canonicalSector } from '../../../schemas/api/location.ts';
import {
  areaCounts, areaMixes, chosenIndex, designationShares, growthChain, latestAsOf, num, placeSources, str, type AreaLevel,
} from '../../lookups/areas.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

/** The level and canonical code of a validated area code. */
export function areaOf(code: string): { level: Exclude<AreaLevel, 'postcode'>; code: string } {
  const sector = canonicalSector(code);
  if (sector) return { level: 'sector', code: sector };
  if (/^[EWSN][0-9]{8}$/i.test(code)) return { level: 'district', code: code.toUpperCase() };
  return { level: 'outcode', code: code.toUpperCase() };
}

const int = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v)));
const r2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

export default defineRoute({
  method: 'GET',
  path: '/areas/{code}',
  operationId: 'getArea',
  summary: 'Profile of a postcode sector, outcode or local authority',
  description:
    'A sector (`BS1 4`), outcode (`BS1`) or local authority GSS code (`E06000023`): addresses by type, tenure, age band and EPC ' +
    'rating; median price (12 months) and £ per sq ft (24 months) with sample sizes; index growth over 1, 5 and 10 years (from a ' +
    'wider area when the area is too thin, and `prices.index` says which); long-term rents by bedrooms with gross yields; ' +
    'short-term lets (listings, ADR, occupancy over 12 months); shares in flood zones and conservation areas; each source\'s as-of date.',
  tag: 'Location',
  cost: 2,
  params: AreaCodeParamsSchema,
  response: AreaSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ params, data, build }) => {
    const t = await data.lookups.get().catch(notServedYet('GET /areas/{code}'));
    if (!t.has.has('area')) notServedYet('GET /areas/{code}')();
    const area = areaOf(params.code);
    const counts = areaCounts(t, area.level, area.code);
    if (!counts) throw new ApiError('not_found', `No addresses in ${area.level} ${area.code}.`);
    const strLevel = area.level === 'district' ? 'la' : area.level;
    const key = `${area.level}:${area.code}`;
    const mix = areaMixes(t, area.level, area.code);
    // Empty where the build lacks the table (t.has): the fields then say "no evidence".
    const chain = growthChain(t, area.level, area.code);
    const sqft = t.rows.sqft.get(key);
    const rents = t.rows.rents.get(key);
    const str12 = t.rows.str.get(`${strLevel}:${area.code}`);
    const own = chain[0];
    const index = chosenIndex(chain);
    const lat = num(counts.lat);
    const lng = num(counts.lng);
    const s = str12[0];
    const sources = placeSources(build, ['addressbase', 'epc', 'epc_scotland', 'price_paid', 'rental_evidence', 'ons_rents', 'airbnb_listings', 'planning', 'ukhpi']);
    return {
      code: area.code,
      level: area.level,
      name: area.level === 'district' ? (t.laNames.get(area.code) ?? null) : str(counts.post_town),
      country: str(counts.country),
      centroid: lat === null || lng === null ? null : { lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 },
      addresses: Number(counts.addresses),
      property_types: mix.property_type!,
      tenures: mix.tenure!,
      construction_ages: mix.construction_age!,
      epc_ratings: mix.epc_rating!,
      prices: {
        median_price_12m: { value: num(own?.median_price_12m), sample_size: Number(own?.sales_12m ?? 0) },
        price_per_sqft: { value: r2(num(sqft[0]?.median_gbp_sqft)), sample_size: Number(sqft[0]?.sales_count ?? 0) },
        growth: { '1y': num(index?.row.growth_1y), '5y': num(index?.row.growth_5y), '10y': num(index?.row.growth_10y) },
        index: index && {
          level: index.used.level,
          code: index.used.code,
          as_of_month: String(index.row.as_of_month),
          widened: index.widened,
          enough_sales: index.enough,
          repeat_pairs: Number(index.row.repeat_pairs ?? 0),
        },
      },
      rents: rents.map((r) => ({
        bedrooms: Number(r.bedrooms),
        median_pcm: r2(num(r.median_pcm)),
        sample_size: Number(r.sample_size ?? 0),
        source: String(r.source),
        gross_yield_pct: r2(num(r.gross_yield_pct)),
        yield_sales: int(r.yield_sales),
      })),
      short_term_lets: s
        ? {
            scrape_date: str(s.scrape_date),
            listings: Number(s.listings),
            active_listings: Number(s.active_listings),
            from_month: str(s.from_month)?.slice(0, 7) ?? null,
            to_month: str(s.to_month)?.slice(0, 7) ?? null,
            adr: r2(num(s.adr)),
            occupancy: num(s.occupancy) === null ? null : Math.round(Number(s.occupancy) * 1000) / 1000,
            booked_nights: num(s.booked_nights),
          }
        : null,
      designations: designationShares(counts),
      as_of_date: latestAsOf(sources, t.buildDate),
      sources,
    };
  },
});
