/**
 * The example requests the OpenAPI document shows (and /docs "Try it out" sends) and `make demo`
 * prints: one per operation, about the property `make demo` prints its examples about
 * (scripts/demo-requests.ts `demoProperty`, on the Makefile's ADDRESSES and SEED), so every
 * documented example answers 2xx on the demo data (test/service/demo-examples.test.ts checks
 * both, test/service/docs-try-it.test.ts presses Execute on each in the browser).
 */
export interface ExampleProperty {
  uprn: string; postcode: string; sector: string; outcode: string; la_code: string; lat: number; lng: number; address: string;
  /**
   * The postcode of the open school nearest the property (null when the build has none): the
   * schools example asks there. The synthetic region draws schools at England's density per
   * home, so the property may have none within the default 5 km.
   */
  school_postcode: string | null;
}

/** The demo property (kept equal to `demoProperty` of the demo build by a test). */
export const DOC_EXAMPLE = {
  uprn: '200000005',
  postcode: 'BS1 1UE',
  sector: 'BS1 1',
  outcode: 'BS1',
  la_code: 'E06000023',
  lat: 51.4539024,
  lng: -2.5895934,
  address: '2 ALEXANDRA DRIVE, BRISTOL, BS1 1UE',
  school_postcode: 'BS14 1HQ',
} as const satisfies ExampleProperty;

export interface ExampleRequest {
  /** Relative to /v1, with its query: one location form only. */
  path: string;
  body?: object;
}

/** The example request of the operation on `routePath` (its template, e.g. `/properties/{uprn}`). */
export function exampleRequest(routePath: string, p: ExampleProperty): ExampleRequest {
  const pc = encodeURIComponent(p.postcode);
  const query: Record<string, string> = {
    '/addresses/search': `/addresses/search?q=${encodeURIComponent(p.address.split(',')[0] ?? p.address)}`,
    '/areas/{code}': `/areas/${encodeURIComponent(p.sector)}`,
    '/prices/comparables': `/prices/comparables?postcode=${pc}&radius_m=1000&sort=date`,
    '/prices/trends': `/prices/trends?outcode=${p.outcode}`,
    '/rents/long-term': `/rents/long-term?outcode=${p.outcode}`,
    '/rents/hmo': `/rents/hmo?outcode=${p.outcode}`,
    '/yields': `/yields?outcode=${p.outcode}`,
    '/str/market': `/str/market?outcode=${p.outcode}&include=summary,grade`,
    '/str/listings': `/str/listings?outcode=${p.outcode}`,
    '/listings': `/listings?postcode=${pc}`,
    '/sourcing/deals': `/sourcing/deals?outcode=${p.outcode}`,
    '/crime': `/crime?lat=${p.lat}&lng=${p.lng}`,
    '/schools': p.school_postcode ? `/schools?postcode=${encodeURIComponent(p.school_postcode)}` : `/schools?lat=${p.lat}&lng=${p.lng}`,
    '/flood-risk': `/flood-risk?postcode=${pc}`,
    '/planning/constraints': `/planning/constraints?uprn=${p.uprn}`,
    '/hmo/licences': `/hmo/licences?postcode=${pc}`,
  };
  const bodies: Record<string, object> = {
    // A number, as a search result gives it (a numeric string works too).
    '/valuations/str-estimate': { uprn: Number(p.uprn), bedrooms: 2 },
    '/valuations/development-gdv': { postcode: p.postcode, units: [{ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 10 }] },
  };
  const path = (query[routePath] ?? routePath).replace('{uprn}', p.uprn).replace('{postcode}', pc).replace('{code}', p.outcode);
  const body = bodies[routePath];
  return { path, ...(body ? { body } : {}) };
}
