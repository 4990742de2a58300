import { writeFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ADDRESSBASE_CORE_HEADER } from '../../schemas/sources/addressbase.ts';
import { AIRBNB_CALENDAR_HEADER, AIRBNB_LISTINGS_HEADER, AIRBNB_REVIEWS_HEADER } from '../../schemas/sources/airbnb.ts';
import { EPC_ODC_HEADER } from '../../schemas/sources/epc.ts';
import { SCOTTISH_EPC_HEADER, SCOTTISH_EPC_LABELS } from '../../schemas/sources/epc-scotland.ts';
import { ONSPD_HEADER } from '../../schemas/sources/onspd.ts';
import { OS_UPRN_HEADER } from '../../schemas/sources/os-uprn.ts';
import { RENTAL_EVIDENCE_HEADER } from '../../schemas/sources/rents.ts';
import { bngToWgs84 } from '../sources/grid.ts';
import { buildAreaIndex, trueValue } from './area-index.ts';
import { CrimeWriter } from './crime.ts';
import { certificatesFor } from './epc.ts';
import { scottishCertificatesFor } from './epc-scotland.ts';
import { addressBaseRow, onspdRow, osUprnRow, ppdAddress, ppdRow, singleLine } from './formats.ts';
import { HMO_TRUTH_HEADER, HmoRegisterWriter } from './hmo.ts';
import { HpiAccumulator } from './hpi.ts';
import { FILE_GROUP, lanesFor, MAX_THREADS, TRUTH_GROUP, type Group } from './lanes.ts';
import { csvRow, OutFile, type Packing } from './out.ts';
import { DEFAULT_TODAY, GENERATOR_VERSION, MIXES, RENT, SCRAPE_LAG_DAYS, TOWNS, type Mix } from './params.ts';
import { buildPlanning, type PlanningShape } from './planning.ts';
import { Planter, plantStreamed } from './planted.ts';
import { rng } from './prng.ts';
import { planRegion } from './region.ts';
import { LISTINGS_TRUTH_HEADER, ListingsWriter } from './listings.ts';
import { letsFor, onsCategory, rentTruth, RentStats } from './rents.ts';
import { SchoolsWriter } from './schools.ts';
import { guid, salesFor, type Sale } from './sales.ts';
import { listingFor, listingRows, newHost, type Host, type Listing } from './str.ts';
import { dayOf, isoDay, monthOf, monthOfDay, todayForEndMonth, ymStr, type DayIdx } from './time.ts';
import { UprnAllocator, sectorUnits, type Property, type Unit } from './units.ts';
import { planningFile, writeHpi, writeOnsRents, type Ctx } from './region-files.ts';

export interface GenerateOptions {
  out: string;
  addresses: number;
  seed: number;
  /** The generator's "today" (YYYY-MM-DD); default 2025-09-30 (data ending in 2025-08). */
  today?: string;
  /** Instead of `today`: the month the data end in (YYYY-MM); today is the last day of the month after (time.ts). */
  endMonth?: string;
  /** Threads to use, 1 or 2 (lanes.ts); default 2 from 20,000 addresses on a machine with two cores. Never changes the bytes. */
  threads?: number;
  /**
   * false: the region as an operator without an AddressBase licence has it (docs/open-data.md):
   * no AddressBase file; every other file and the truth exactly as with it.
   */
  addressBase?: boolean;
  /**
   * true: the sources their publishers ship as zip archives are written as such (`ZIPPED`),
   * each the one member of its archive; false (default): as plain CSV, the bytes pinned by
   * the golden list. Never changes a member's bytes.
   */
  zip?: boolean;
  /** Town weights: `demo` (default) or `national`, the three countries in proportion to their dwellings (params.ts, `townWeights`). */
  mix?: Mix;
}

export interface FileReport {
  file: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  generator: 'property-intelligence-synth';
  generator_version: string;
  seed: number;
  addresses: number;
  today: string;
  scrape_date: string;
  files: Record<string, { rows: number; bytes: number; sha256: string }>;
  truth: Record<string, { rows: number; bytes: number; sha256: string }>;
  /** Present (false) only for a region written without its AddressBase file. */
  address_base?: false;
}

/** Paths of the generated sources under OUT (the ETL looks for these names). */
export const FILES = {
  addressbase: 'addressbase/addressbase-core.csv',
  uprn: 'uprn/osopenuprn.csv',
  onspd: 'postcodes/onspd.csv',
  epc: 'epc/certificates.csv',
  /** The Scottish EPC Register's extract (its own layout), for the Scottish town. */
  epcScotland: 'epc/scotland/D_EPC_data.csv',
  ppd: 'ppd/pp-complete.csv',
  ppdUpdate: 'ppd/pp-monthly-update.csv',
  listings: 'airbnb/listings.csv.gz',
  calendar: 'airbnb/calendar.csv.gz',
  reviews: 'airbnb/reviews.csv.gz',
  flood: 'planning/flood-risk-zone.geojson',
  conservation: 'planning/conservation-area.geojson',
  article4: 'planning/article-4-direction-area.geojson',
  hpi: 'hpi/UK-HPI-full-file.csv',
  onsRents: 'rents/ons-prms.csv',
  evidence: 'rents/rental-evidence.csv',
  hmo: 'hmo/hmo-register.csv',
} as const;

/**
 * The sources whose publishers ship zip archives, and each archive's name (docs/synthetic-region.md,
 * "Compressed sources"): the EPC bulk download, the Scottish register's extract, OS Open UPRN,
 * ONSPD (its CSV under Data/) and AddressBase from the OS Data Hub. Price Paid, the UK HPI and
 * the rest are published plain, and Inside Airbnb gzipped (`FILES` has its .gz names).
 */
export const ZIPPED = {
  addressbase: { archive: 'addressbase/addressbase-core.zip', member: 'addressbase-core.csv' },
  uprn: { archive: 'uprn/osopenuprn_csv.zip', member: 'osopenuprn.csv' },
  onspd: { archive: 'postcodes/onspd.zip', member: 'Data/onspd.csv' },
  epc: { archive: 'epc/all-domestic-certificates.zip', member: 'certificates.csv' },
  epcScotland: { archive: 'epc/scotland/D_EPC_data.zip', member: 'D_EPC_data.csv' },
} as const satisfies Partial<Record<keyof typeof FILES, { archive: string; member: string }>>;

/** The path of each source under OUT: `FILES`, or with `zip` each zipped source's member through its archive (`…/x.zip/member`), as the ETL names it. */
export function sourceFiles(zip = false): Record<keyof typeof FILES, string> {
  const out: Record<string, string> = { ...FILES };
  if (zip) for (const [k, z] of Object.entries(ZIPPED)) out[k] = `${z.archive}/${z.member}`;
  return out as Record<keyof typeof FILES, string>;
}

/** Folders of the location sources (crime, schools, listings feeds), whose files are named by month, branch or release. */
export const LOCATED_DIRS = ['crime/', 'gias/', 'listings/'] as const;

export const TRUTH = {
  properties: 'truth/properties.csv',
  sales: 'truth/sales.csv',
  areaIndex: 'truth/area-index.csv',
  listings: 'truth/listings.csv',
  listingMonths: 'truth/listing-months.csv',
  rentals: 'truth/rentals.csv',
  crimeFiles: 'truth/crime-files.csv',
  listingsMarket: 'truth/listings-market.csv',
  hmoLicences: 'truth/hmo-licences.csv',
  scottishCertificates: 'truth/scottish-certificates.csv',
  expectedRejects: 'truth/expected-rejects.json',
} as const;

const TRUTH_HEADERS = {
  properties: [
    'uprn', 'postcode', 'district', 'la_code', 'country', 'property_type', 'built_form', 'bedrooms', 'habitable_rooms',
    'floor_area_m2', 'year_built', 'built_month', 'tenure', 'epc_band', 'quality', 'unit_premium', 'flood_zone',
    'conservation_area', 'article_4', 'base_value', 'true_value_today', 'private_rented', 'hmo', 'true_rent_pcm',
    'true_room_rent_pcm', 'rooms',
  ],
  sales: ['transaction_id', 'true_uprn', 'date', 'month', 'price', 'true_value', 'log_noise', 'new_build', 'category', 'file', 'status', 'postcode_as_written', 'district'],
  areaIndex: ['district', 'month', 'index'],
  listings: ['listing_id', 'uprn', 'room_type', 'bedrooms', 'active', 'true_adr_mean', 'true_occupancy_base', 'observed_price'],
  listingMonths: ['listing_id', 'month', 'true_adr', 'booked_nights', 'blocked_nights', 'available_nights'],
  rentals: ['evidence_id', 'true_uprn', 'let_date', 'let_type', 'true_rent_pcm', 'observed_rent_pcm'],
  crimeFiles: ['force', 'month', 'release', 'rows', 'current'],
  listingsMarket: LISTINGS_TRUTH_HEADER,
  hmoLicences: HMO_TRUTH_HEADER,
  scottishCertificates: ['report_reference_number', 'true_uprn', 'osg_written', 'lodgement_date'],
};

/** Tenancies are simulated from here (EPCs for lets from 2008 need the earlier ones). */
const LETS_FROM = monthOf('2005-01');
const ONSPD_OLD_INTRO = monthOf('1980-01');

/** Units after which the planted rows go (or at the end when the region is smaller). */
const PLANT_AFTER_UNIT = 5;

/** What one lane wrote: its files and the planted rows it put in them. */
export interface LaneResult {
  reports: FileReport[];
  expected: Record<string, Record<string, number>>;
}

function checkOptions(opts: GenerateOptions): void {
  const { addresses, seed, threads } = opts;
  if (!Number.isInteger(addresses) || addresses < 1) throw new Error(`addresses must be a positive integer, got ${addresses}`);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`seed must be an integer 0…4294967295, got ${seed}`);
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) throw new Error(`threads must be a positive integer, got ${threads}`);
  if (opts.today !== undefined && opts.endMonth !== undefined) throw new Error('give today or endMonth, not both');
  if (opts.mix !== undefined && !MIXES.includes(opts.mix)) throw new Error(`mix must be ${MIXES.join(' or ')}, got ${String(opts.mix)}`);
  generatorToday(opts);
}

/** The generator's today: `today`, else the one `endMonth` implies, else DEFAULT_TODAY. */
export function generatorToday(opts: Pick<GenerateOptions, 'today' | 'endMonth'>): string {
  return opts.today ?? (opts.endMonth === undefined ? DEFAULT_TODAY : todayForEndMonth(opts.endMonth));
}

/** Two threads from 20,000 addresses when the machine has two cores: below that, starting a worker costs more than it saves. */
function defaultThreads(addresses: number): number {
  return addresses >= 20_000 ? Math.min(MAX_THREADS, availableParallelism()) : 1;
}

const YOUNG_GENERATION_MB = 192;

/** Runs a lane in a worker thread (lane-worker-boot.mjs registers tsx, then loads lane-worker.ts). */
function laneInWorker(opts: GenerateOptions, groups: Group[], started: Worker[]): Promise<LaneResult> {
  return new Promise((resolve, reject) => {
    // A young generation of 192 MB (64 MB semi-spaces) rather than V8's 16 MB semi-spaces: the
    // generator makes short-lived row strings at a great rate, and scavenging them took a quarter
    // of its CPU time; measured at 100,000 addresses, 20.1 s of CPU → 16.9 s (peak RSS +90 MB).
    const w = new Worker(new URL('./lane-worker-boot.mjs', import.meta.url), { workerData: { opts, groups }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    started.push(w);
    let result: LaneResult | undefined;
    w.once('message', (m: LaneResult) => (result = m));
    w.once('error', reject);
    w.once('exit', (code) => (result && code === 0 ? resolve(result) : reject(new Error(`synth lane worker exited with code ${code}`))));
  });
}

/**
 * Generates the whole synthetic region into `opts.out`, streaming postcode unit by postcode
 * unit: memory holds one unit, the per-district aggregates and the (small) planning layers.
 * With two threads, each of two workers writes half the file groups (lanes.ts). Same options →
 * byte-identical files, whatever the number of threads.
 */
export async function generateRegion(opts: GenerateOptions): Promise<{ manifest: Manifest; files: FileReport[] }> {
  checkOptions(opts);
  const { out, addresses, seed } = opts;
  const todayStr = generatorToday(opts);
  const scrape = dayOf(todayStr) - SCRAPE_LAG_DAYS;
  mkdirSync(out, { recursive: true });

  const lanes = lanesFor(opts.threads ?? defaultThreads(addresses));
  // One lane runs here; two run in workers (with a larger young generation than this thread has).
  const workers: Worker[] = [];
  const results = lanes.length === 1
    ? [await writeLane(opts, lanes[0]!)]
    : await Promise.all(lanes.map((groups) => laneInWorker(opts, groups, workers))).catch(async (e: unknown) => {
      // One lane failed: stop the others rather than let them write on.
      await Promise.all(workers.map((w) => w.terminate()));
      throw e;
    });

  let reports = results.flatMap((r) => r.reports);
  const planter = new Planter();
  for (const r of results) Object.assign(planter.expected, r.expected);
  if (opts.addressBase === false) {
    // Written as always (the lanes' bytes stay the same), then taken away with its planted rows.
    const addressBase = sourceFiles(opts.zip).addressbase;
    rmSync(join(out, dirname(FILES.addressbase)), { recursive: true, force: true });
    reports = reports.filter((r) => r.file !== addressBase);
    delete planter.expected[addressBase];
  }
  const planning = buildPlanning(seed, planRegion(addresses, opts.mix));
  const geo: [string, PlanningShape['dataset']][] = [[FILES.flood, 'flood-risk-zone'], [FILES.conservation, 'conservation-area'], [FILES.article4, 'article-4-direction-area']];
  for (const [rel, dataset] of geo) {
    const { text, rows } = planningFile({ planning, planter }, rel, dataset);
    reports.push(writeSmall(out, rel, text, rows));
  }
  reports.push(writeSmall(out, TRUTH.expectedRejects, JSON.stringify(planter.toJSON(), null, 2) + '\n', 0));

  reports.sort((a, b) => a.file.localeCompare(b.file));
  const entry = (r: FileReport) => [r.file, { rows: r.rows, bytes: r.bytes, sha256: r.sha256 }] as const;
  const manifest: Manifest = {
    generator: 'property-intelligence-synth',
    generator_version: GENERATOR_VERSION,
    seed,
    addresses,
    today: todayStr,
    scrape_date: isoDay(scrape),
    files: Object.fromEntries(reports.filter((r) => !r.file.startsWith('truth/')).map(entry)),
    truth: Object.fromEntries(reports.filter((r) => r.file.startsWith('truth/')).map(entry)),
    ...(opts.addressBase === false ? { address_base: false as const } : {}),
  };
  const mtext = JSON.stringify(manifest, null, 2) + '\n';
  writeFileSync(join(out, 'manifest.json'), mtext);
  reports.push({ file: 'manifest.json', rows: 0, bytes: Buffer.byteLength(mtext), sha256: createHash('sha256').update(mtext).digest('hex') });
  return { manifest, files: reports };
}

/**
 * One lane: walks every unit of the region and writes the files of `groups`; the files of
 * other groups are `live: false` OutFiles that discard what they are given, and the work
 * only they need is skipped (`ctx.own`).
 */
export async function writeLane(opts: GenerateOptions, groups: readonly Group[]): Promise<LaneResult> {
  const { out, addresses, seed } = opts;
  const todayStr = generatorToday(opts);
  const todayDay = dayOf(todayStr);
  const today = monthOf(todayStr);
  const scrape = todayDay - SCRAPE_LAG_DAYS;
  const mine = new Set<Group>(groups);
  const own = (g: Group) => mine.has(g);

  const plan = planRegion(addresses, opts.mix);
  const byTown = TOWNS.map((town) => ({ town, districts: plan.filter((d) => d.town === town).map((d) => d.code) }));
  const index = buildAreaIndex(seed, byTown, today + 12);
  const planning = buildPlanning(seed, plan);

  const f = Object.fromEntries(
    Object.entries(sourceFiles(opts.zip)).filter(([, rel]) => rel.endsWith('.csv') || rel.endsWith('.csv.gz'))
      .map(([k, rel]) => [k, new OutFile(join(out, rel), rel, packing(rel), 'utf8', own(FILE_GROUP[k]!))]),
  ) as Record<Exclude<keyof typeof FILES, 'flood' | 'conservation' | 'article4'>, OutFile>;
  const t = Object.fromEntries(
    Object.entries(TRUTH).filter(([, rel]) => rel.endsWith('.csv')).map(([k, rel]) => [k, new OutFile(join(out, rel), rel, 'none', 'utf8', own(TRUTH_GROUP[k]!))]),
  ) as Record<Exclude<keyof typeof TRUTH, 'expectedRejects'>, OutFile>;
  f.addressbase.raw(ADDRESSBASE_CORE_HEADER.join(',') + '\n');
  f.uprn.raw(OS_UPRN_HEADER.join(',') + '\n');
  f.onspd.raw(ONSPD_HEADER.join(',') + '\n');
  f.epc.raw(EPC_ODC_HEADER.join(',') + '\n');
  // UTF-8 with a BOM, the descriptive header row first, then the column names (as in the
  // releases the Nesta loader reads: it skips the first row).
  f.epcScotland.raw('\uFEFF' + csvRow([...SCOTTISH_EPC_LABELS]) + SCOTTISH_EPC_HEADER.join(',') + '\n');
  f.listings.raw(AIRBNB_LISTINGS_HEADER.join(',') + '\n');
  f.calendar.raw(AIRBNB_CALENDAR_HEADER.join(',') + '\n');
  f.reviews.raw(AIRBNB_REVIEWS_HEADER.join(',') + '\n');
  f.evidence.raw(RENTAL_EVIDENCE_HEADER.join(',') + '\n');
  for (const [k, h] of Object.entries(TRUTH_HEADERS)) t[k as keyof typeof t].raw(h.join(',') + '\n');

  const ctx: Ctx = {
    seed, today, todayDay, scrape, index, planning, f, t, own,
    planter: new Planter(),
    hpi: new HpiAccumulator(),
    onsStats: new Map(),
    ids: { listing: 0, review: 0, host: 0 },
    evidenceSeq: 0,
    updates: { c: 0, d: 0 },
    crime: new CrimeWriter(seed),
    schools: new SchoolsWriter(out, seed, todayDay, own('schools')),
    market: new ListingsWriter(seed, todayDay),
    hmo: new HmoRegisterWriter(f.hmo, t.hmoLicences, seed, todayDay),
  };
  const live = [...Object.values(f), ...Object.values(t)].filter((o) => o.live);
  const uprns = new UprnAllocator();
  let unitCount = 0;
  for (const d of plan) {
    for (let s = 0; s < d.sectorQuotas.length; s++) {
      for (const unit of sectorUnits(seed, d, s, d.sectorQuotas[s]!, uprns, planning, today)) {
        writeUnit(ctx, unit);
        if (++unitCount === PLANT_AFTER_UNIT) plantStreamed(ctx.planter, f, seed);
        if (live.some((o) => o.pending)) await Promise.all(live.map((o) => o.maybeFlush()));
      }
    }
  }
  if (unitCount < PLANT_AFTER_UNIT) plantStreamed(ctx.planter, f, seed);
  if (own('hmo')) ctx.hmo.plant(ctx.planter);

  if (own('hpi')) writeHpi(ctx, plan);
  if (own('onsRents')) writeOnsRents(ctx);
  if (own('areaIndex')) {
    for (const d of index.districts()) {
      for (let m = index.start; m <= today; m++) t.areaIndex.row(`${d},${ymStr(m)},${index.at(d, m).toFixed(4)}\n`);
    }
  }

  const reports: FileReport[] = [];
  const located = [
    ...(own('crime') ? await ctx.crime.write(out, today - 2, ctx.planter, t.crimeFiles!) : []),
    ...(own('schools') ? [await ctx.schools.close(ctx.planter)] : []),
    ...(own('market') ? await ctx.market.write(out, ctx.planter, t.listingsMarket!) : []),
  ];
  for (const o of located) reports.push({ file: o.rel, rows: o.rows, bytes: statSync(o.path).size, sha256: o.sha256 });
  for (const o of live) {
    const bytes = await o.close();
    reports.push({ file: o.rel, rows: o.rows, bytes, sha256: o.sha256 });
  }
  // Planted rows given to another lane's files were discarded here; that lane counts them.
  const written = new Set(reports.map((r) => r.file));
  const expected = Object.fromEntries(Object.entries(ctx.planter.expected).filter(([rel]) => written.has(rel)));
  return { reports, expected };
}

/** How a source file is stored, from its path: a member of a zip archive, gzip, or plain. */
function packing(rel: string): Packing {
  return /\.zip\//i.test(rel) ? 'zip' : rel.endsWith('.gz') ? 'gzip' : 'none';
}

function writeSmall(out: string, rel: string, text: string, rows: number): FileReport {
  const p = join(out, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return { file: rel, rows, bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
}

const n2 = (x: number) => (Math.round(x * 1e4) / 1e4).toString();

function writeUnit(ctx: Ctx, u: Unit): void {
  const { f, t, seed, today, index, own } = ctx;
  const town = u.district.town;
  if (own('onspd')) {
    const ll = bngToWgs84(u.e, u.n);
    const lat = ll.lat.toFixed(6);
    const lng = ll.lng.toFixed(6);
    if (u.predecessor) f.onspd!.row(onspdRow(u, u.predecessor.postcode, lat, lng, ONSPD_OLD_INTRO, u.predecessor.doterm));
    f.onspd!.row(onspdRow(u, u.postcode, lat, lng, Math.max(u.dointr, u.predecessor?.doterm ?? 0), undefined));
  }

  const ownUprn = own('uprn');
  const uprnRows: [number, string][] = ownUprn ? u.parentUprns.map((p) => [p.uprn, osUprnRow(p.uprn, p.e, p.n, p.lat, p.lng)]) : [];
  const listings: Listing[] = [];
  const ur = rng(seed, 'unit-host', u.postcode);
  const proUnit = ur.chance(0.25);
  let unitHost: Host | undefined;
  const hostFor = (r: ReturnType<typeof rng>, start: DayIdx) =>
    proUnit ? (unitHost ??= newHost(r, ctx.ids, start, true)) : newHost(r, ctx.ids, start, false);
  const lastUpdate = isoDay(ctx.todayDay - 30 - (u.e % 700));

  for (const p of u.properties) {
    if (own('addressbase')) f.addressbase!.row(addressBaseRow(p, lastUpdate));
    if (ownUprn) uprnRows.push([p.uprn, osUprnRow(p.uprn, p.e, p.n, p.lat, p.lng)]);
    const sales = salesFor(seed, p, p.uprn, index, today);
    if (own('hpi')) {
      ctx.hpi.addProperty(p);
      hpiSales(ctx, p, sales);
    }
    if (own('sales')) writeSales(ctx, p, sales, p.uprn);
    const rt = rentTruth(seed, p, index, today);
    // Tenancies feed the certificates (a let triggers one) and the rental evidence only.
    const lets = own('epc') || own('scotland') || own('evidence') ? letsFor(seed, p, rt, LETS_FROM, today) : [];
    if (town.country !== 'S') {
      if (own('epc')) for (const c of certificatesFor(seed, p, sales, lets, today)) f.epc!.row(csvRow(c.cells));
    } else if (own('scotland')) {
      for (const c of scottishCertificatesFor(seed, p, sales, lets, today)) {
        f.epcScotland!.row(csvRow(c.cells));
        t.scottishCertificates!.row(csvRow([c.report, p.uprn, c.osgWritten ? 1 : 0, isoDay(c.day)]));
      }
    }
    if (own('evidence')) writeRentals(ctx, p, lets);
    if (rt.hmo && own('hmo')) ctx.hmo.add(p, rt.rooms);
    if (rt.privateRented && own('onsRents')) {
      const r = rng(seed, 'ons-rent', p.uprn);
      if (rt.hmo) for (let i = 0; i < rt.rooms; i++) onsStat(ctx, town.laCode, 'Room').add(rt.roomRentToday! * Math.exp(r.gauss(0, RENT.observedSd)));
      else {
        const rent = rt.rentToday * Math.exp(r.gauss(0, RENT.observedSd));
        onsStat(ctx, town.laCode, onsCategory(p)).add(rent);
        onsStat(ctx, town.laCode, 'All categories').add(rent);
      }
    }
    const valueToday = Math.round(trueValue(p.baseValue, p.district.code, today, index));
    if (own('market')) ctx.market.add(p, valueToday, rt);
    const l = own('airbnb') ? listingFor(seed, p, hostFor, ctx.ids, ctx.scrape) : undefined;
    if (l) listings.push(l);
    if (own('properties')) t.properties!.row(csvRow([
      p.uprn, p.postcode, p.district.code, town.laCode, town.country, p.type, p.builtForm, p.bedrooms, p.habitableRooms,
      p.floorArea, p.yearBuilt, p.builtMonth === undefined ? '' : ymStr(p.builtMonth), p.tenure, 'ABCDEFG'[p.epcBand - 1],
      n2(p.quality), n2(p.unitPremium), p.flags.floodZone, p.flags.conservation ? 1 : 0, p.flags.article4 ? 1 : 0,
      p.baseValue, valueToday, rt.privateRented ? 1 : 0, rt.hmo ? 1 : 0,
      rt.rentToday, rt.roomRentToday, rt.rooms,
    ]));
  }
  for (const [, row] of uprnRows.sort((a, b) => a[0] - b[0])) f.uprn!.row(row);
  if (own('crime')) ctx.crime.add(u);
  if (own('schools')) ctx.schools.add(u);
  if (own('hpi') || own('sales')) {
    u.phantoms.forEach((p, i) => {
      const sales = salesFor(seed, p, `${u.postcode}/${i}`, index, today);
      if (own('hpi')) hpiSales(ctx, p, sales);
      if (own('sales')) writeSales(ctx, p, sales, `${u.postcode}/${i}`);
    });
  }

  const rows = listingRows(listings);
  listings.forEach((l, i) => {
    f.listings!.row(rows[i]!);
    for (const c of l.calendar) f.calendar!.row(c);
    for (const rv of l.reviews) f.reviews!.row(rv);
    t.listings!.row(csvRow([l.id, l.uprn, l.roomType, l.bedrooms, l.active ? 1 : 0, l.adrMean, n2(l.occupancy), l.observedPrice]));
    for (const m of l.months) t.listingMonths!.row(`${l.id},${ymStr(m.month)},${m.adr},${m.booked},${m.blocked},${m.available}\n`);
  });
}

function onsStat(ctx: Ctx, la: string, cat: string): RentStats {
  const k = `${la}|${cat}`;
  let s = ctx.onsStats.get(k);
  if (!s) ctx.onsStats.set(k, (s = new RentStats()));
  return s;
}

/** HPI sales volumes (Scotland's too: the HPI covers it though Price Paid does not). */
function hpiSales(ctx: Ctx, p: Property, sales: Sale[]): void {
  for (const s of sales) ctx.hpi.addSale(p, monthOfDay(s.day), s.newBuild);
}

/** Price Paid rows (England and Wales), monthly-update records and ground truth. */
function writeSales(ctx: Ctx, p: Property, sales: Sale[], key: string | number): void {
  const { f, t, today } = ctx;
  const r = rng(ctx.seed, 'ppd', key);
  for (const s of sales) {
    const month = monthOfDay(s.day);
    if (p.town.country === 'S') continue; // Registers of Scotland, not HM Land Registry
    const a = ppdAddress(r, p, month, ctx.seed);
    const truth = (id: string, price: number, file: string, status: string) =>
      t.sales!.row(csvRow([id, p.phantom ? '' : p.uprn, isoDay(s.day), ymStr(month), price, s.trueValue, n2(s.noise), s.newBuild ? 'Y' : 'N', s.category, file, status, a.postcode, p.district.code]));
    if (month === today - 1) {
      f.ppdUpdate!.row(ppdRow(s.id, s.price, s, p, a, 'A'));
      truth(s.id, s.price, 'pp-monthly-update', 'A');
      continue;
    }
    // The first few recent sales of the region are always corrected or deleted, so even a
    // small region's update has C and D records; beyond those, a small random share.
    const recent = month >= today - 13;
    const u = r.next();
    const forceC = recent && ctx.updates.c < 2;
    const forceD = recent && !forceC && ctx.updates.d < 2;
    if (forceC || (recent && u < 0.004)) {
      ctx.updates.c++;
      // Keyed with an extra zero, corrected by the monthly update.
      f.ppd!.row(ppdRow(s.id, s.price * 10, s, p, a, 'A'));
      f.ppdUpdate!.row(ppdRow(s.id, s.price, s, p, a, 'C'));
      truth(s.id, s.price, 'pp-complete', 'C');
      continue;
    }
    f.ppd!.row(ppdRow(s.id, s.price, s, p, a, 'A'));
    truth(s.id, s.price, 'pp-complete', 'A');
    if (forceD || (recent && u > 0.998)) {
      ctx.updates.d++;
      // Registered twice; the monthly update deletes the duplicate.
      const dup = guid(r);
      f.ppd!.row(ppdRow(dup, s.price, s, p, a, 'A'));
      f.ppdUpdate!.row(ppdRow(dup, s.price, s, p, a, 'D'));
      truth(dup, s.price, 'pp-complete', 'D');
    }
  }
}

function writeRentals(ctx: Ctx, p: Property, lets: ReturnType<typeof letsFor>): void {
  const r = rng(ctx.seed, 'evidence', p.uprn);
  for (const l of lets) {
    if (l.month < ctx.today - RENT.evidenceMonths) continue;
    const id = `EV${String(++ctx.evidenceSeq).padStart(9, '0')}`;
    const addr = r.chance(0.3) ? singleLine(p).split(', ').slice(0, -1).join(', ').toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase()) : singleLine(p).split(', ').slice(0, -1).join(', ');
    ctx.f.evidence!.row(csvRow([
      id, isoDay(l.day), addr, p.postcode, r.chance(0.85) ? p.uprn : '', p.type === 'F' ? 'flat' : 'house',
      p.bedrooms, l.kind, l.observedRent, r.chance(0.9) ? l.furnished : '', r.pick(['agent-feed-a', 'agent-feed-b', 'portal-c']),
    ]));
    ctx.t.rentals!.row(csvRow([id, p.uprn, isoDay(l.day), l.kind, l.trueRent, l.observedRent]));
  }
}
