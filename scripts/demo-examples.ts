/**
 * Prints an example request for every endpoint, with a real UPRN and postcode from the
 * current build and the demo key.   npx tsx scripts/demo-examples.ts <account.json> [port] [data-dir]
 */
import { readFileSync } from 'node:fs';
import { demoExamples, demoProperty } from './demo-requests.ts';

const [accountFile, port = '8080', dataDir = './data'] = process.argv.slice(2);
if (!accountFile) {
  process.stderr.write('usage: npx tsx scripts/demo-examples.ts <account.json> [port] [data-dir]\n');
  process.exit(2);
}
const { api_key: key, tier } = JSON.parse(readFileSync(accountFile, 'utf8')) as { api_key: string; tier: string };

const p = await demoProperty(dataDir);
const base = `http://localhost:${port}/v1`;
process.stdout.write(`\nDemo account (${tier}); key, shown once:\n  ${key}\n\nExample: ${p.address} (UPRN ${p.uprn})\n\n`);
for (const { route: r, path, body } of demoExamples(p)) {
  const data = body ? ` -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'` : '';
  process.stdout.write(`# ${r.summary} (${r.cost} credit${r.cost === 1 ? '' : 's'})\ncurl -s${r.method === 'POST' ? ' -X POST' : ''} -H 'Authorization: Bearer ${key}'${data} '${base}${path}'\n\n`);
}
process.stdout.write(`Docs: http://localhost:${port}/docs   OpenAPI: ${base}/openapi.json   Metrics: http://localhost:${port}/metrics\n\n`);
