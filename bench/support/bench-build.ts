/**
 * The synthetic region and published build a benchmark runs on, made once per scale and seed
 * and reused: `data/bench/region-<N>-<S>` (generator output, with its truth) and
 * `data/bench/dd-<N>-<S>` (a DATA_DIR whose `current` is a build of that region).
 * A build made by older code (a table or artifact the pipeline now publishes is missing) is
 * rebuilt, so a bench never times yesterday's layout.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EtlLogger } from '../../etl/pipeline/context.ts';
import { runBuild } from '../../etl/pipeline/run.ts';
import { PUBLISHED_TABLES } from '../../schemas/tables/index.ts';
import { withBuildLock } from '../../etl/schedule/lock.ts';
import { generateRegion } from '../../etl/synth/generate.ts';
import type { Mix } from '../../etl/synth/params.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** Artifacts the service needs besides the Parquet tables. */
const ARTIFACTS = ['search_index', 'property_records', 'property_records_paged', 'comparables', 'valuation_homes', 'sale_evidence', 'sale_evidence_postcodes', 'lookup_sales', 'lookup_type_months', 'lookup_epc', 'lookup_postcodes',
  'designations', 'crime_points', 'crime_areas', 'crime_homes', 'listing_points', 'listing_outcodes', 'hmo_points', 'hmo_outcodes',
  'lookup_area_counts', 'lookup_area_mix', 'lookup_area_index', 'lookup_area_growth', 'lookup_area_sqft', 'lookup_area_rents', 'lookup_area_str', 'lookup_area_rooms',
  'rent_lets_cells', 'rent_lets_areas', 'sqft_sales_cells', 'postcode_points_cells', 'str_market_rows', 'str_market_cells', 'str_market_areas'];

export interface BenchBuild {
  region: string;
  dataDir: string;
  /** The build folder `current` points at. */
  buildDir: string;
}

/** What a build at `dataDir/current` lacks of today's pipeline (empty when up to date or absent). */
export function missingFromBuild(dataDir: string): string[] | null {
  const file = join(dataDir, 'current', 'manifest.json');
  if (!existsSync(file)) return null;
  const m = JSON.parse(readFileSync(file, 'utf8')) as { tables?: Record<string, unknown>; artifacts?: Record<string, unknown> };
  return [
    ...PUBLISHED_TABLES.map((t) => t.name).filter((n) => !m.tables?.[n]),
    ...ARTIFACTS.filter((a) => !m.artifacts?.[a]),
  ];
}

const stderrLog = (m: string) => process.stderr.write(`${m}\n`);

/** How a region is generated besides its size and seed: the demo or national mix, sources zipped or plain. */
export interface RegionKind {
  mix?: Mix;
  zip?: boolean;
}

/** The suffix of a region's folder for `kind`: none for the demo mix in plain files, `-national`, `-zip`. */
export function regionSuffix(kind: RegionKind = {}): string {
  return `${kind.mix === 'national' ? '-national' : ''}${kind.zip ? '-zip' : ''}`;
}

/**
 * The synthetic region alone (`data/bench/region-<N>-<S>`, with `regionSuffix` for another
 * kind), generated when missing.
 */
export async function ensureRegion(addresses: number, seed: number, log: (msg: string) => void = stderrLog, kind: RegionKind = {}): Promise<string> {
  const region = join(ROOT, 'data', 'bench', `region-${addresses}-${seed}${regionSuffix(kind)}`);
  if (!existsSync(join(region, 'manifest.json'))) {
    log(`generating ${addresses} addresses (seed ${seed}${regionSuffix(kind)}) into ${region} …`);
    mkdirSync(region, { recursive: true });
    await generateRegion({ out: region, addresses, seed, ...(kind.mix ? { mix: kind.mix } : {}), ...(kind.zip ? { zip: true } : {}) });
  }
  return region;
}

export async function ensureBenchBuild(addresses: number, seed: number, log: (msg: string) => void = stderrLog): Promise<BenchBuild> {
  const region = await ensureRegion(addresses, seed, log);
  const dataDir = join(ROOT, 'data', 'bench', `dd-${addresses}-${seed}`);
  const missing = missingFromBuild(dataDir);
  if (missing === null || missing.length > 0) {
    log(missing === null ? `building ${dataDir} …` : `rebuilding ${dataDir} (lacks ${missing.join(', ')}) …`);
    const quiet: EtlLogger = {
      info: () => undefined,
      warn: (o, msg) => log(`warn ${msg ?? ''} ${JSON.stringify(o)}`),
      error: (o, msg) => log(`error ${msg ?? ''} ${JSON.stringify(o)}`),
    };
    const t0 = performance.now();
    await withBuildLock(dataDir, () => runBuild({ dataDir, sourcesDir: region, log: quiet }));
    log(`built in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  return { region, dataDir, buildDir: join(dataDir, 'current') };
}

// npx tsx bench/support/bench-build.ts [--addresses N] [--seed S]: make (or bring up to date) the bench build.
if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const get = (k: string, d: number) => {
    const i = process.argv.indexOf(`--${k}`);
    return i >= 0 ? Number(process.argv[i + 1]) : d;
  };
  const b = await ensureBenchBuild(get('addresses', 1_000_000), get('seed', 42));
  process.stdout.write(`${JSON.stringify(b)}\n`);
}
