/**
 * The example values the OpenAPI document shows (and /docs pre-fills): the property `make demo`
 * prints its examples about (scripts/demo-requests.ts `demoProperty`, on the Makefile's
 * ADDRESSES and SEED), so every documented example answers 2xx on the demo data
 * (test/service/demo-examples.test.ts checks both).
 */
export const DOC_EXAMPLE = {
  uprn: '200000005',
  postcode: 'BS1 1UE',
  sector: 'BS1 1',
  outcode: 'BS1',
  la_code: 'E06000023',
} as const;
