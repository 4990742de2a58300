/**
 * An open-data build beside an AddressBase build of the same synthetic region (issue 47,
 * docs/open-data.md): what the fallback covers and gets right against the region's truth, and
 * how search finds a home typed as its certificate writes it and as Price Paid writes it.
 *
 *   npx tsx bench/open-data.ts [--addresses 100000] [--seed 42] [--targets 1000]
 *
 * The region is generated twice (with and without its AddressBase file; every other byte
 * the same), each built by the real ETL. Each target is typed keystroke by keystroke from
 * the third character: the keystroke at which the home is first in the list and stays there,
 * and at which it is in the top 5 and stays; and where the completed text ranks it.
 * Writes bench/results/open-data-<N>.json.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import type { EtlLogger } from '../etl/pipeline/context.ts';
import { runBuild } from '../etl/pipeline/run.ts';
import { generateRegion } from '../etl/synth/generate.ts';
import type { Manifest } from '../schemas/manifest.ts';
import { SearchIndex } from '../service/search/engine.ts';
import { SEARCH_INDEX_FILE } from '../lib/files/search-index-format.ts';

const quiet: EtlLogger = { info: () => {}, warn: () => {}, error: () => {} } as unknown as EtlLogger;
const FIRST = 3;

export interface Typing { targets: number; in_index: number; first_at_median: number | null; top5_at_median: number | null; completed_top1: number; completed_top5: number }
export interface BuildFigures {
  address_source: unknown;
  /** The manifest's check against the truth (open-data builds only). */
  open_data_truth: unknown;
  /** Sales counted in the country-level index's monthly volumes: placed by UPRN or by postcode. */
  sales_in_area_statistics: number;
  uprns_with_address: number;
  true_homes: number;
  sales: number;
  sales_matched: number;
  sales_matched_share: number;
  sale_match_precision: number;
  wrong_uprns: number;
  typed_as_price_paid: Typing;
  typed_as_certificate: Typing;
}
export interface OpenDataResult { addresses: number; seed: number; targets: number; addressbase: BuildFigures; open_data: BuildFigures }

const median = (v: number[]) => {
  if (v.length === 0) return null;
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const share = (n: number, of: number) => (of === 0 ? 0 : Math.round((10_000 * n) / of) / 10_000);

/** A seeded shuffle's first `k` (mulberry32): the same targets on both builds and every run. */
function sample<T>(items: T[], k: number, seed: number): T[] {
  let a = seed >>> 0;
  const rnd = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.slice(0, k);
}

function typeAll(index: SearchIndex, targets: { uprn: number; text: string }[], inIndex: Set<number>): Typing {
  const firstAt: number[] = [];
  const top5At: number[] = [];
  let c1 = 0;
  let c5 = 0;
  let present = 0;
  for (const t of targets) {
    if (!inIndex.has(t.uprn)) continue;
    present++;
    let first: number | null = null;
    let top5: number | null = null;
    for (let k = FIRST; k <= t.text.length; k++) {
      const got = index.search(t.text.slice(0, k), 10).map((m) => Number(m.uprn));
      const r = got.indexOf(t.uprn);
      first = r === 0 ? (first ?? k) : null;
      top5 = r >= 0 && r < 5 ? (top5 ?? k) : null;
    }
    if (first !== null) (firstAt.push(first), c1++);
    if (top5 !== null) (top5At.push(top5), c5++);
  }
  return { targets: targets.length, in_index: present, first_at_median: median(firstAt), top5_at_median: median(top5At), completed_top1: share(c1, present), completed_top5: share(c5, present) };
}

async function build(region: string, dataDir: string): Promise<Manifest> {
  return (await runBuild({ dataDir, sourcesDir: region, log: quiet, now: new Date('2025-10-01T00:00:00Z') })).manifest;
}

export async function openDataComparison(opts: { addresses: number; seed: number; targets: number; workDir?: string }): Promise<OpenDataResult> {
  const work = opts.workDir ?? join(tmpdir(), `pi-open-data-${process.pid}`);
  const regions = { addressbase: join(work, 'region-ab'), open_data: join(work, 'region-open') };
  await generateRegion({ out: regions.addressbase, addresses: opts.addresses, seed: opts.seed });
  await generateRegion({ out: regions.open_data, addresses: opts.addresses, seed: opts.seed, addressBase: false });
  const csv = (f: string) => parse(readFileSync(join(regions.addressbase, f)), { columns: true, skip_empty_lines: true, relax_column_count: true }) as Record<string, string>[];
  const truthSales = new Map(csv('truth/sales.csv').map((r) => [r.transaction_id!, Number(r.true_uprn)]));
  const trueHomes = csv('truth/properties.csv').length;
  // The texts people type: Price Paid's form of each sale, and each certificate's lines.
  const ppd = parse(readFileSync(join(regions.addressbase, 'ppd/pp-complete.csv')), { relax_column_count: true }) as string[][];
  const ppdTargets = ppd
    .map((f) => ({ uprn: truthSales.get(f[0]!.replace(/[{}]/g, '')) ?? 0, text: [f[8], f[7], f[9], f[11], f[3]].filter((x) => x && x.trim()).join(', ') }))
    .filter((t) => t.uprn > 0);
  const certTargets = csv('epc/certificates.csv')
    .map((r) => ({ uprn: Number(r.UPRN || 0), text: [r.ADDRESS1, r.ADDRESS2, r.ADDRESS3, r.POSTCODE].filter((x) => x && x.trim()).join(', ') }))
    .filter((t) => t.uprn > 0);
  const ppdSample = sample(ppdTargets, opts.targets, opts.seed);
  const certSample = sample(certTargets, opts.targets, opts.seed + 1);
  const out: Partial<Record<'addressbase' | 'open_data', BuildFigures>> = {};
  for (const kind of ['addressbase', 'open_data'] as const) {
    const dataDir = join(work, `dd-${kind}`);
    const manifest = await build(regions[kind], dataDir);
    const buildDir = join(dataDir, 'builds', manifest.build_id);
    const index = SearchIndex.load(join(buildDir, SEARCH_INDEX_FILE));
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    const uprns = new Set((await conn.runAndReadAll(`SELECT uprn FROM '${join(buildDir, 'addresses.parquet')}' WHERE lat IS NOT NULL`)).getRowObjectsJson().map((r) => Number(r.uprn)));
    const matched = (await conn.runAndReadAll(`SELECT transaction_id, uprn FROM '${join(buildDir, 'sales.parquet')}'`)).getRowObjectsJson();
    const [inStats] = (await conn.runAndReadAll(`SELECT sum(sales_count)::BIGINT AS n FROM '${join(buildDir, 'price_index_monthly.parquet')}' WHERE area_level = 'country'`)).getRowObjectsJson();
    conn.closeSync();
    const wrong = matched.filter((r) => truthSales.get(String(r.transaction_id).replace(/[{}]/g, '')) !== Number(r.uprn)).length;
    const sales = Number((manifest.quality.sales_coverage as { sales?: number } | undefined)?.sales ?? 0);
    out[kind] = {
      address_source: manifest.quality.address_source,
      open_data_truth: manifest.quality.open_data_truth ?? null,
      sales_in_area_statistics: Number(inStats?.n ?? 0),
      uprns_with_address: uprns.size,
      true_homes: trueHomes,
      sales,
      sales_matched: matched.length,
      sales_matched_share: share(matched.length, sales),
      sale_match_precision: share(matched.length - wrong, matched.length),
      wrong_uprns: wrong,
      typed_as_price_paid: typeAll(index, ppdSample, uprns),
      typed_as_certificate: typeAll(index, certSample, uprns),
    };
  }
  if (!opts.workDir) rmSync(work, { recursive: true, force: true });
  return { addresses: opts.addresses, seed: opts.seed, targets: opts.targets, addressbase: out.addressbase!, open_data: out.open_data! };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (k: string, d: number) => {
    const i = process.argv.indexOf(`--${k}`);
    return i >= 0 ? Number(process.argv[i + 1]) : d;
  };
  const addresses = arg('addresses', 100_000);
  const t0 = performance.now();
  const r = await openDataComparison({ addresses, seed: arg('seed', 42), targets: arg('targets', 1000) });
  const out = { bench: 'open-data', command: `npx tsx bench/open-data.ts ${process.argv.slice(2).join(' ')}`.trim(), at: new Date().toISOString(), seconds: Math.round((performance.now() - t0) / 1000), ...r };
  console.log(JSON.stringify(out, null, 1));
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, 'results', `open-data-${addresses}.json`), JSON.stringify(out, null, 1) + '\n');
}
