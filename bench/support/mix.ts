/**
 * The whole-system mix: requests per 1,000 of each endpoint (the 28 of docs/openapi.json, then
 * the status page), shared by bench/mixed.ts and bench/national.ts. Why these shares: the
 * header of bench/mixed.ts.
 */
export const MIX: [string, number][] = [
  ['GET /v1/addresses/search', 225],
  ['GET /v1/properties/{uprn}', 180],
  ['GET /v1/properties/{uprn}/sales', 40],
  ['GET /v1/properties/{uprn}/epc', 30],
  ['GET /v1/postcodes/{postcode}', 40],
  ['GET /v1/valuations/{uprn}/sale', 90],
  ['GET /v1/valuations/{uprn}/rental', 50],
  ['GET /v1/valuations/{uprn}/hmo', 30],
  ['POST /v1/valuations/development-gdv', 10],
  ['GET /v1/prices/comparables', 30],
  ['GET /v1/prices/trends', 20],
  ['GET /v1/rents/long-term', 30],
  ['GET /v1/rents/hmo', 10],
  ['GET /v1/yields', 15],
  ['POST /v1/valuations/str-estimate', 20],
  ['GET /v1/str/market', 10],
  ['GET /v1/str/listings', 10],
  ['GET /v1/listings', 20],
  ['GET /v1/sourcing/deals', 10],
  ['GET /v1/areas/{code}', 15],
  ['GET /v1/crime', 15],
  ['GET /v1/schools', 15],
  ['GET /v1/risks/{uprn}', 40],
  ['GET /v1/flood-risk', 15],
  ['GET /v1/planning/constraints', 10],
  ['GET /v1/hmo/licences', 5],
  ['GET /v1/account', 5],
  ['GET /v1/account/usage', 5],
  ['GET /v1/status', 5],
];
