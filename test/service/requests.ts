/**
 * A valid request for every endpoint of the registry, so tests can call each one and
 * reach its handler. Keyed by operationId; a test fails if an endpoint has none.
 */
import type { RouteDef } from '../../service/routes/types.ts';

const UPRN = '100023336956';

export const VALID_INPUT: Record<string, { query?: string; body?: unknown }> = {
  searchAddresses: { query: 'q=high%20street&limit=5' },
  getProperty: { query: 'fields=address,postcode' },
  getPropertySales: {},
  getPropertyEpc: {},
  getPostcode: {},
  getSaleValuation: {},
  getRentalValuation: { query: 'bedrooms=2' },
  getHmoValuation: { query: 'finish_quality=above_average&parking=false' },
  estimateDevelopmentGdv: { body: { postcode: 'BS1 4DJ', units: [{ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 6 }] } },
  getSoldComparables: { query: 'lat=51.45&lng=-2.59&radius_m=500&bedrooms=3' },
  getPriceTrends: { query: 'outcode=BS1' },
  getLongTermRents: { query: 'outcode=BS1&bedrooms=2' },
  getHmoRents: { query: 'outcode=BS1' },
  getYields: { query: 'outcode=BS1' },
  estimateShortTermLet: { body: { postcode: 'BS1 4DJ', bedrooms: 2 } },
  getStrMarket: { query: 'outcode=BS1&include=summary,grade' },
  getStrListings: { query: 'lat=51.45&lng=-2.59&radius_m=800' },
  getListings: { query: 'outcode=BS1&type=rent' },
  getSourcingDeals: { query: 'outcode=BS1' },
  getArea: {},
  getCrime: { query: 'postcode=BS1%204DJ' },
  getSchools: { query: 'lat=51.45&lng=-2.59' },
  getRisks: {},
  getFloodRisk: { query: 'postcode=BS1%204DJ' },
  getPlanningConstraints: { query: `uprn=${UPRN}` },
  getHmoLicences: { query: 'outcode=BS1' },
  getAccount: {},
  getAccountUsage: {},
};

/** The concrete path (with query) and body of a valid call to `route`. */
export function validCall(route: RouteDef): { path: string; body?: unknown } {
  const input = VALID_INPUT[route.operationId];
  if (!input) throw new Error(`no valid input declared for ${route.operationId}`);
  const path = route.path.replace('{uprn}', UPRN).replace('{postcode}', 'BS1%204DJ').replace('{code}', 'BS1');
  return { path: `/v1${path}${input.query ? `?${input.query}` : ''}`, ...(input.body !== undefined ? { body: input.body } : {}) };
}

/**
 * The registry with each data endpoint's handler replaced by one that answers 200: the
 * data endpoints are built by later issues, and the metering chain (auth, limits,
 * validation, credits) must be proven on 2xx responses of every endpoint now.
 */
export function routesAnswering200(routes: readonly RouteDef[]): RouteDef[] {
  return routes.map((r) =>
    r.needsBuild
      ? {
          ...r,
          needsBuild: false,
          handler: async ({ params, query, body }: { params: unknown; query: unknown; body: unknown }) => {
            // Yield to the event loop so concurrent requests interleave inside the chain.
            await new Promise((res) => setImmediate(res));
            // Echo what validation handed the handler, so tests can see defaults and types.
            return { ok: true, endpoint: r.operationId, input: { params, query, body } };
          },
        }
      : r,
  );
}
