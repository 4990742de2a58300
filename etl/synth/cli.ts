import { parseArgs } from 'node:util';
import { generateRegion } from './generate.ts';
import { MIXES, type Mix } from './params.ts';
import { planRegion } from './region.ts';
import { lastCompleteMonth } from './time.ts';

const USAGE = `usage: npm run synth -- --out DIR --addresses N --seed S [--end-month YYYY-MM | --today YYYY-MM-DD] [--mix demo|national] [--zip]

  --out DIR        output folder (created; existing files of the same names are replaced)
  --addresses N    number of residential addresses (UPRNs in the address base), 1 to 38,000,000
                   (the demo mix holds about 19 million, the national mix about 38 million)
  --seed S         integer seed 0…4294967295: same seed, same bytes
  --end-month M    the month the data end in (Price Paid's latest month), YYYY-MM, or
                   last-complete: the last complete month before the clock's today (make demo)
                   (default 2025-08)
  --today DATE     instead of --end-month: the generator's "today" (default 2025-09-30), the
                   data ending the month before
  --threads T      1 or 2 (default 2 from 20,000 addresses on two cores); never changes the bytes
  --no-addressbase the region without its AddressBase file, as an open-data deployment has it
                   (docs/open-data.md); everything else, the truth included, is the same
  --mix M          demo (default): the towns' demo weights; national: England, Wales and
                   Scotland in proportion to their dwellings (docs/synthetic-region.md)
  --zip            write the sources their publishers ship zipped (EPC, Scottish EPC, OS Open
                   UPRN, ONSPD, AddressBase) as zip archives; the members' bytes are the same`;

function fail(msg: string): never {
  process.stderr.write(`synth: ${msg}\n\n${USAGE}\n`);
  process.exit(2);
}

function intArg(name: string, v: string | undefined, min: number, max: number): number {
  if (v === undefined) fail(`--${name} is required`);
  if (!/^\d+$/.test(v)) fail(`--${name} must be a whole number, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) fail(`--${name} must be between ${min} and ${max}, got ${v}`);
  return n;
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: { out: { type: 'string' }, addresses: { type: 'string' }, seed: { type: 'string' }, today: { type: 'string' }, 'end-month': { type: 'string' }, threads: { type: 'string' }, 'no-addressbase': { type: 'boolean' }, mix: { type: 'string' }, zip: { type: 'boolean' }, help: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  }));
} catch (e) {
  fail((e as Error).message);
}
if (values.help) {
  process.stdout.write(USAGE + '\n');
  process.exit(0);
}
const out = typeof values.out === 'string' && values.out !== '' ? values.out : fail('--out is required');
const addresses = intArg('addresses', values.addresses as string | undefined, 1, 38_000_000);
const mix = (values.mix ?? 'demo') as Mix;
if (!MIXES.includes(mix)) fail(`--mix must be ${MIXES.join(' or ')}, got "${String(values.mix)}"`);
try {
  planRegion(addresses, mix);
} catch (e) {
  fail((e as Error).message);
}
const seed = intArg('seed', values.seed as string | undefined, 0, 0xffffffff);
const today = values.today as string | undefined;
const threads = values.threads === undefined ? undefined : intArg('threads', values.threads as string, 1, 2);
if (today !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(today)) fail(`--today must be YYYY-MM-DD, got "${today}"`);
const endArg = values['end-month'] as string | undefined;
if (endArg !== undefined && today !== undefined) fail('give --end-month or --today, not both');
// The clock is read here, never in the generator: `last-complete` is the month before this one.
const endMonth = endArg === 'last-complete' ? lastCompleteMonth(new Date()) : endArg;
if (endMonth !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(endMonth)) fail(`--end-month must be YYYY-MM or last-complete, got "${endArg}"`);

const t0 = performance.now();
const { files } = await generateRegion({ out, addresses, seed, today, endMonth, threads, mix, zip: values.zip === true, ...(values['no-addressbase'] ? { addressBase: false } : {}) });
const secs = (performance.now() - t0) / 1000;
let rows = 0;
let bytes = 0;
const w = Math.max(...files.map((f) => f.file.length));
for (const f of files) {
  rows += f.rows;
  bytes += f.bytes;
  process.stdout.write(`${f.file.padEnd(w)}  ${String(f.rows).padStart(10)} rows  ${String(f.bytes).padStart(12)} bytes\n`);
}
process.stdout.write(`wrote ${files.length} files, ${rows} rows, ${(bytes / 1e6).toFixed(1)} MB into ${out} in ${secs.toFixed(1)} s (${Math.round(rows / secs)} rows/s)\n`);
