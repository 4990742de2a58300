/**
 * Prints an example request for every endpoint, with a real UPRN and postcode from the
 * current build and the demo key.   npx tsx scripts/demo-examples.ts <account.json> [port] [data-dir]
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { V1_ROUTES } from '../service/routes/v1/index.ts';

const [accountFile, port = '8080', dataDir = './data'] = process.argv.slice(2);
if (!accountFile) {
  process.stderr.write('usage: npx tsx scripts/demo-examples.ts <account.json> [port] [data-dir]\n');
  process.exit(2);
}
const { api_key: key, tier } = JSON.parse(readFileSync(accountFile, 'utf8')) as { api_key: string; tier: string };

const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
const props = join(resolve(dataDir), 'current', 'properties.parquet').replaceAll("'", "''");
const [p] = (await conn.runAndReadAll(
  `SELECT uprn::VARCHAR AS uprn, postcode, outcode, lat, lng, address FROM read_parquet('${props}') WHERE last_sold_price IS NOT NULL AND floor_area_sqft IS NOT NULL ORDER BY uprn LIMIT 1`,
)).getRowObjectsJson() as { uprn: string; postcode: string; outcode: string; lat: number; lng: number; address: string }[];
if (!p) throw new Error('the current build has no property with a sale and a floor area');

const base = `http://localhost:${port}/v1`;
const examplePath: Record<string, string> = {
  '/addresses/search': `/addresses/search?q=${encodeURIComponent(p.address.split(',')[0] ?? p.address)}`,
  '/prices/comparables': `/prices/comparables?postcode=${encodeURIComponent(p.postcode)}`,
  '/prices/trends': `/prices/trends?outcode=${p.outcode}`,
  '/rents/long-term': `/rents/long-term?outcode=${p.outcode}`,
  '/rents/hmo': `/rents/hmo?outcode=${p.outcode}`,
  '/yields': `/yields?outcode=${p.outcode}`,
  '/str/market': `/str/market?outcode=${p.outcode}&include=summary,grade`,
  '/str/listings': `/str/listings?outcode=${p.outcode}`,
  '/listings': `/listings?postcode=${encodeURIComponent(p.postcode)}`,
  '/sourcing/deals': `/sourcing/deals?outcode=${p.outcode}`,
  '/crime': `/crime?lat=${p.lat}&lng=${p.lng}`,
  '/schools': `/schools?lat=${p.lat}&lng=${p.lng}`,
  '/flood-risk': `/flood-risk?postcode=${encodeURIComponent(p.postcode)}`,
  '/planning/constraints': `/planning/constraints?uprn=${p.uprn}`,
  '/hmo/licences': `/hmo/licences?postcode=${encodeURIComponent(p.postcode)}`,
};
const bodies: Record<string, object> = {
  '/valuations/str-estimate': { uprn: p.uprn, bedrooms: 2 },
  '/valuations/development-gdv': { postcode: p.postcode, units: [{ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 10 }] },
};

process.stdout.write(`\nDemo account (${tier}); key, shown once:\n  ${key}\n\nExample: ${p.address} (UPRN ${p.uprn})\n\n`);
for (const r of V1_ROUTES) {
  const path = (examplePath[r.path] ?? r.path)
    .replace('{uprn}', p.uprn).replace('{postcode}', encodeURIComponent(p.postcode)).replace('{code}', p.outcode);
  const body = bodies[r.path];
  const data = body ? ` -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'` : '';
  process.stdout.write(`# ${r.summary} (${r.cost} credit${r.cost === 1 ? '' : 's'})\ncurl -s${r.method === 'POST' ? ' -X POST' : ''} -H 'Authorization: Bearer ${key}'${data} '${base}${path}'\n\n`);
}
process.stdout.write(`Docs: http://localhost:${port}/docs   OpenAPI: ${base}/openapi.json   Metrics: http://localhost:${port}/metrics\n\n`);
conn.closeSync();
