import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AreaIndex, trueValue } from './area-index.ts';
import { TRUTH } from './generate.ts';
import { monthOf, type MonthIdx } from './time.ts';

export { trueValue } from './area-index.ts';
export { monthOf } from './time.ts';

/**
 * Readers of the ground truth for tests and benchmarks (the ETL and the service never read
 * it). With the area index and a property's base value, `trueValue` gives its true market
 * value in any month of the history: the oracle against which valuations are scored.
 */

async function* lines(path: string): AsyncGenerator<string[]> {
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let first = true;
  for await (const line of rl) {
    if (first) {
      first = false;
      continue;
    }
    if (line !== '') yield line.split(',');
  }
}

/** truth/area-index.csv → the AreaIndex the generator used. */
export async function loadAreaIndex(dir: string): Promise<AreaIndex> {
  const series = new Map<string, number[]>();
  let start: MonthIdx | undefined;
  let end: MonthIdx | undefined;
  for await (const [district, month, value] of lines(join(dir, TRUTH.areaIndex))) {
    const m = monthOf(month!);
    start = start === undefined ? m : Math.min(start, m);
    end = end === undefined ? m : Math.max(end, m);
    const s = series.get(district!) ?? [];
    s.push(Number(value));
    series.set(district!, s);
  }
  if (start === undefined || end === undefined) throw new Error(`${dir}: empty area index`);
  const idx = new AreaIndex(start, end);
  for (const [d, v] of series) idx.set(d, Float64Array.from(v));
  return idx;
}

export interface TruthProperty {
  uprn: number;
  district: string;
  baseValue: number;
  trueRentPcm: number;
}

/** truth/properties.csv, the columns valuation scoring needs, by UPRN. */
export async function loadTruthProperties(dir: string): Promise<Map<number, TruthProperty>> {
  const out = new Map<number, TruthProperty>();
  const header = ['uprn', 'district', 'base_value', 'true_rent_pcm'];
  let col: number[] | undefined;
  const rl = createInterface({ input: createReadStream(join(dir, TRUTH.properties)), crlfDelay: Infinity });
  for await (const line of rl) {
    const f = line.split(',');
    if (!col) {
      col = header.map((h) => f.indexOf(h));
      continue;
    }
    if (line === '') continue;
    const uprn = Number(f[col[0]!]);
    out.set(uprn, { uprn, district: f[col[1]!]!, baseValue: Number(f[col[2]!]), trueRentPcm: Number(f[col[3]!]) });
  }
  return out;
}

/** True value of a property in `month` (`YYYY-MM`) from the loaded truth. */
export function trueValueAt(p: TruthProperty, month: string, index: AreaIndex): number {
  return trueValue(p.baseValue, p.district, monthOf(month), index);
}
