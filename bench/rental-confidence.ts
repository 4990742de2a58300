/**
 * Confidence rules for the rental valuation, compared on the backtest's valued lets
 * (docs/valuation-rental-hmo.md, "Rental valuation", "Backtest"; issue 18).
 *
 *   RENTAL_ROWS=/tmp/rows-42.json npx tsx bench/backtest-rental.ts --data-dir DIR --sources DIR --out -
 *   npx tsx bench/rental-confidence.ts --tune /tmp/rows-42.json [--tune …] --check /tmp/rows-7.json [--only NAME …] [--out FILE]
 *
 * Each candidate rule maps a let's signals (bench/backtest-rental.ts, RentalSignals in service/domain/valuation-models/rental.ts) to High,
 * Medium or Low. Its thresholds are chosen on the --tune files only, against the true rent
 * (truth/rentals.csv) with the agreed rents' scatter put back by simulation: each let's error
 * against the truth is combined with 24 draws of the generator's scatter (log SD 0.17,
 * etl/synth/params.ts RENT.observedSd), giving each group's expected MdAPE against an agreed
 * rent and its sampling SD at the group's size; the thresholds maximise the smaller of the two
 * z-scores (Medium − High, Low − Medium). The --check files are then scored as they are,
 * against their agreed rents, with bootstrap 95% intervals of each group's MdAPE and of the
 * differences (2,000 resamples of the lets), and with the agreed rents drawn again 500 times
 * around the true rents (the same scatter): each group's expected MdAPE, its SD, and the share
 * of draws in which High < Medium < Low holds.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { rentalConfidence } from '../service/domain/valuation-models/rental.ts';

type Conf = 'High' | 'Medium' | 'Low';
export interface Row {
  ev: { weight: number; radius: number; lets: number; sd: number; n_eff: number; nearest_m: number; same_home: number; age_months: number };
  confidence: Conf;
  rent: number;
  trueRent: number;
  estimate: number;
}

const OBSERVED_SD = 0.17;
const DRAWS = 24;
const SIMULATED = 500;
const CONFS: Conf[] = ['High', 'Medium', 'Low'];

/** Deterministic PRNG (mulberry32) and standard normals, so the figures repeat. */
function rng(seed: number) {
  let a = seed >>> 0;
  const u = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const gauss = () => Math.sqrt(-2 * Math.log(u() || 1e-12)) * Math.cos(2 * Math.PI * u());
  return { u, gauss };
}

function median(v: Float64Array | number[]): number {
  if (!v.length) return NaN;
  const s = Float64Array.from(v).sort();
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}
const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const ape = (est: number, ref: number) => Math.abs(est - ref) / ref;

/** A rule: a score (higher = more confident) and whether 1,300 m forces Low, cut at two thresholds. */
interface Candidate {
  name: string;
  doc: string;
  score: (e: Row['ev']) => number;
  /** Fits the score on the tune rows first (the predicted-error rule). */
  fit?: (rows: Row[]) => (e: Row['ev']) => number;
  /** Fixed thresholds [lo, hi] (Low below lo, High from hi); else tried at quantiles of the score. */
  fixed?: [number, number];
  wideIsLow: boolean;
}

const quantiles = (v: number[], qs: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return qs.map((q) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!);
};

export const CANDIDATES: Candidate[] = [
  { name: 'previous', doc: 'the rule before: W ≥ 6 High; 1,300 m or W < 2.5 Low', score: (e) => e.weight, fixed: [2.5, 6], wideIsLow: true },
  {
    name: 'service',
    doc: 'the service\'s rule (rentalConfidence: the predicted rule with its coefficients and thresholds as written in RENTAL_MODEL)',
    score: (e) => ({ High: 2, Medium: 1, Low: 0 })[rentalConfidence(e)],
    fixed: [0.5, 1.5],
    wideIsLow: false,
  },
  { name: 'weight', doc: 'summed weight W, thresholds retuned (Low also at 1,300 m)', score: (e) => e.weight, wideIsLow: true },
  { name: 'weight_only', doc: 'summed weight W alone', score: (e) => e.weight, wideIsLow: false },
  { name: 'lets', doc: 'number of lets used (Low also at 1,300 m)', score: (e) => e.lets, wideIsLow: true },
  { name: 'n_eff', doc: 'effective number of lets W²/Σw² (Low also at 1,300 m)', score: (e) => e.n_eff, wideIsLow: true },
  { name: 'se', doc: 'standard error: weighted SD of adjusted log rents ÷ √n_eff (smaller = more confident; Low also at 1,300 m)', score: (e) => -e.sd / Math.sqrt(e.n_eff), wideIsLow: true },
  { name: 'sd', doc: 'weighted SD of the adjusted log rents (smaller = more confident; Low also at 1,300 m)', score: (e) => -e.sd, wideIsLow: true },
  { name: 'nearest', doc: 'distance of the nearest let of the same kind (nearer = more confident)', score: (e) => -e.nearest_m, wideIsLow: false },
  { name: 'age', doc: 'weighted mean age of the evidence (newer = more confident; Low also at 1,300 m)', score: (e) => -e.age_months, wideIsLow: true },
  { name: 'radius', doc: 'radius used: 220 m High, 670 m Medium, 1,300 m Low', score: (e) => -e.radius, fixed: [-670, -220], wideIsLow: false },
  { name: 'same_home', doc: 'High when the home\'s own other let was used; Low at 1,300 m or W below the threshold', score: (e) => e.weight + 1000 * e.same_home, wideIsLow: true },

  {
    name: 'predicted',
    doc: 'predicted |log error| against the true rent, least squares on the tune lets over ln W, own let used, SD, ln n_eff, 670 m, 1,300 m, ln(nearest + 10 m), age, ln lets (smaller = more confident)',
    score: () => 0,
    fit: (rows) => {
      const b = leastSquares(rows.map((r) => features(r.ev)), rows.map((r) => Math.abs(Math.log(r.estimate / r.trueRent))));
      console.error(`predicted: coefficients ${b.map((x) => x.toPrecision(4)).join(' ')}`);
      return (e) => -features(e).reduce((t, x, i) => t + x * b[i]!, 0);
    },
    wideIsLow: false,
  },
];

const features = (e: Row['ev']) => [1, Math.log(e.weight), e.same_home, e.sd, Math.log(e.n_eff), e.radius === 670 ? 1 : 0, e.radius >= 1300 ? 1 : 0, Math.log(e.nearest_m + 10), e.age_months, Math.log(e.lets)];

/** Ordinary least squares by the normal equations (Gauss–Jordan with partial pivoting). */
function leastSquares(X: number[][], y: number[]): number[] {
  const k = X[0]!.length;
  const A = Array.from({ length: k }, (_, i) => [...Array.from({ length: k }, (_, j) => X.reduce((t, x) => t + x[i]! * x[j]!, 0)), X.reduce((t, x, n) => t + x[i]! * y[n]!, 0)]);
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[p]![c]!)) p = r;
    [A[c], A[p]] = [A[p]!, A[c]!];
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = A[r]![c]! / A[c]![c]!;
      for (let j = c; j <= k; j++) A[r]![j]! -= f * A[c]![j]!;
    }
  }
  return A.map((row, i) => row[k]! / row[i]!);
}

function classify(c: Candidate, e: Row['ev'], lo: number, hi: number): Conf {
  const s = c.score(e);
  if ((c.wideIsLow && e.radius >= 1300) || s < lo) return 'Low';
  return s >= hi ? 'High' : 'Medium';
}

/** Expected MdAPE against an agreed rent, and its SD at the group's size, by simulation of the scatter. */
function simulate(logErr: Float64Array, noise: Float64Array[]): { mdape: number; sd: number } {
  const per: number[] = [];
  const n = logErr.length;
  if (n === 0) return { mdape: NaN, sd: NaN };
  const v = new Float64Array(n);
  for (const eps of noise) {
    for (let i = 0; i < n; i++) v[i] = Math.abs(Math.exp(logErr[i]! - eps[i]!) - 1);
    per.push(median(v));
  }
  const m = per.reduce((t, x) => t + x, 0) / per.length;
  return { mdape: 100 * m, sd: 100 * Math.sqrt(per.reduce((t, x) => t + (x - m) ** 2, 0) / (per.length - 1)) };
}

function tune(c: Candidate, rows: Row[]) {
  if (c.fit) c.score = c.fit(rows);
  const scores = rows.filter((r) => !c.wideIsLow || r.ev.radius < 1300).map((r) => c.score(r.ev));
  const grid = [...new Set(quantiles(scores, Array.from({ length: 24 }, (_, i) => (i + 1) / 25)))];
  const pairs = c.fixed ? [c.fixed] : grid.flatMap((lo) => grid.filter((hi) => hi > lo).map((hi) => [lo, hi] as [number, number]));
  const g = rng(1);
  const noise = Array.from({ length: DRAWS }, () => Float64Array.from(rows, () => OBSERVED_SD * g.gauss()));
  const logErr = Float64Array.from(rows, (r) => Math.log(r.estimate / r.trueRent));
  let best: { lo: number; hi: number; z: number } | undefined;
  for (const [lo, hi] of pairs) {
    const groups = CONFS.map((k) => rows.map((r, i) => (classify(c, r.ev, lo, hi) === k ? i : -1)).filter((i) => i >= 0));
    if (!c.fixed && groups.some((ix) => ix.length < 0.1 * rows.length)) continue;
    const sim = groups.map((ix) => simulate(Float64Array.from(ix, (i) => logErr[i]!), noise.map((eps) => Float64Array.from(ix, (i) => eps[i]!))));
    const z = Math.min(
      (sim[1]!.mdape - sim[0]!.mdape) / Math.hypot(sim[0]!.sd, sim[1]!.sd),
      (sim[2]!.mdape - sim[1]!.mdape) / Math.hypot(sim[1]!.sd, sim[2]!.sd),
    );
    if (!best || z > best.z) best = { lo, hi, z };
  }
  return best;
}

/** Per-group figures against the agreed rent, with bootstrap 95% intervals of the MdAPE and of the gaps. */
export function score(rows: Row[], conf: (r: Row) => Conf, seed = 2) {
  const groups = Object.fromEntries(CONFS.map((k) => [k, rows.filter((r) => conf(r) === k)])) as Record<Conf, Row[]>;
  const g = rng(seed);
  // The agreed rents drawn again (SIMULATED times) around the true rents with the generator's
  // scatter: how often the order would hold, and each group's expected MdAPE, for these estimates.
  const sims: Record<Conf, number[]> = { High: [], Medium: [], Low: [] };
  for (let b = 0; b < SIMULATED; b++) {
    for (const k of CONFS) {
      const rs = groups[k];
      const v = new Float64Array(rs.length);
      for (let i = 0; i < rs.length; i++) v[i] = Math.abs((rs[i]!.estimate / rs[i]!.trueRent) * Math.exp(-OBSERVED_SD * g.gauss()) - 1);
      sims[k].push(100 * median(v));
    }
  }
  const orderedShare = r2(sims.High.filter((h, i) => h < sims.Medium[i]! && sims.Medium[i]! < sims.Low[i]!).length / SIMULATED);
  const boot: Record<Conf, number[]> = { High: [], Medium: [], Low: [] };
  for (let b = 0; b < 2000; b++) {
    for (const k of CONFS) {
      const rs = groups[k];
      const v = new Float64Array(rs.length);
      for (let i = 0; i < rs.length; i++) {
        const r = rs[Math.floor(g.u() * rs.length)]!;
        v[i] = ape(r.estimate, r.rent);
      }
      boot[k].push(100 * median(v));
    }
  }
  const ci = (v: number[]) => quantiles(v, [0.025, 0.975]).map(r1);
  const out: Record<string, unknown> = {};
  for (const k of CONFS) {
    const rs = groups[k];
    out[k] = {
      n: rs.length,
      mdape: r1(100 * median(rs.map((r) => ape(r.estimate, r.rent)))),
      mdape_ci95: ci(boot[k]),
      within_10: r1((100 * rs.filter((r) => ape(r.estimate, r.rent) <= 0.1).length) / Math.max(1, rs.length)),
      oracle_mdape: r1(100 * median(rs.map((r) => ape(r.trueRent, r.rent)))),
      mdape_vs_true: r1(100 * median(rs.map((r) => ape(r.estimate, r.trueRent)))),
      simulated_mdape: r1(sims[k].reduce((t, x) => t + x, 0) / SIMULATED),
      simulated_mdape_sd: r2(Math.sqrt(sims[k].reduce((t, x, _, a) => t + (x - a.reduce((u, y) => u + y, 0) / SIMULATED) ** 2, 0) / (SIMULATED - 1))),
    };
  }
  out.simulated_ordered_share = orderedShare;
  const diff = (a: Conf, b: Conf) => boot[b].map((x, i) => x - boot[a][i]!);
  const dm = diff('High', 'Medium'), ml = diff('Medium', 'Low');
  out.gap_medium_minus_high = { ci95: ci(dm), share_positive: r2(dm.filter((x) => x > 0).length / dm.length) };
  out.gap_low_minus_medium = { ci95: ci(ml), share_positive: r2(ml.filter((x) => x > 0).length / ml.length) };
  const m = (k: Conf) => out[k] as { mdape: number };
  out.ordered = m('High').mdape < m('Medium').mdape && m('Medium').mdape < m('Low').mdape;
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  const all = (k: string) => args.flatMap((a, i) => (a === `--${k}` ? [args[i + 1]!] : []));
  const load = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Row[];
  const tuneRows = all('tune').flatMap(load);
  const checks = all('check').map((f) => ({ file: f, rows: load(f) }));
  const report: Record<string, unknown>[] = [];
  const only = all('only');
  for (const c of CANDIDATES.filter((k) => !only.length || only.includes(k.name))) {
    const t0 = performance.now();
    const best = tune(c, tuneRows);
    if (!best) continue;
    const conf = (r: Row) => classify(c, r.ev, best.lo, best.hi);
    const entry = {
      candidate: c.name, rule: c.doc, low_below: Number(best.lo.toPrecision(4)), high_from: Number(best.hi.toPrecision(4)), tune_z: r2(best.z),
      tune: all('tune').map((f) => ({ file: f, ...score(load(f), conf) })),
      check: checks.map(({ file, rows }) => ({ file, ...score(rows, conf) })),
    };
    report.push(entry);
    console.error(`${c.name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.log(JSON.stringify(entry));
  }
  const out = args[args.indexOf('--out') + 1];
  if (args.includes('--out') && out) writeFileSync(out, JSON.stringify({ command: `npx tsx bench/rental-confidence.ts ${args.join(' ')}`, candidates: report }, null, 1) + '\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
