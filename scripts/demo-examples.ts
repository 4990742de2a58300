/**
 * Prints an example request for every endpoint, with a real UPRN and postcode from the
 * current build and the demo key, as one script that waits between calls to stay within the
 * key's rate limit (paste it whole: no 429).   npx tsx scripts/demo-examples.ts <account.json> [port] [data-dir]
 */
import { readFileSync } from 'node:fs';
import { PLANS, type Tier } from '../schemas/plans.ts';
import { demoExamples, demoProperty, paceSeconds } from './demo-requests.ts';

const [accountFile, port = '8080', dataDir = './data'] = process.argv.slice(2);
if (!accountFile) {
  process.stderr.write('usage: npx tsx scripts/demo-examples.ts <account.json> [port] [data-dir]\n');
  process.exit(2);
}
const { api_key: key, tier } = JSON.parse(readFileSync(accountFile, 'utf8')) as { api_key: string; tier: Tier };

const p = await demoProperty(dataDir);
const base = `http://localhost:${port}/v1`;
const rl = PLANS[tier].rateLimit;
const pace = paceSeconds(tier);
const limit = rl ? `${rl.limit} requests per ${rl.windowMs / 1000} s` : 'no rate limit';
process.stdout.write(`\nDemo account: ${PLANS[tier].name} tier (${PLANS[tier].allowance ?? 'unlimited'} credits, ${limit}); key, shown once:\n  ${key}\n\n`);
process.stdout.write(`Example: ${p.address} (UPRN ${p.uprn}). Paste the block below whole: it waits ${pace} s between calls to stay within the key's rate limit.\n\n`);
for (const { route: r, path, body } of demoExamples(p)) {
  const data = body ? ` -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'` : '';
  process.stdout.write(`# ${r.summary} (${r.cost} credit${r.cost === 1 ? '' : 's'})\ncurl -s${r.method === 'POST' ? ' -X POST' : ''} -H 'Authorization: Bearer ${key}'${data} '${base}${path}'; echo; sleep ${pace}\n\n`);
}
process.stdout.write(`Docs: http://localhost:${port}/docs   OpenAPI: ${base}/openapi.json   Metrics: http://127.0.0.1:9464/metrics (METRICS_PORT)\n\n`);
