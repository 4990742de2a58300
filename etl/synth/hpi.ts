import { UKHPI_FULL_HEADER } from '../../schemas/sources/ukhpi.ts';
import { seasonality, type AreaIndex } from './area-index.ts';
import { BASE_MONTH, COUNTRY_CODES, TOWNS, type PropType } from './params.ts';
import type { District } from './region.ts';
import { monthNum, monthOf, monthYear, type MonthIdx } from './time.ts';
import type { Property } from './units.ts';

const TYPES: PropType[] = ['D', 'S', 'T', 'F'];
const TYPE_COL: Record<PropType, string> = { D: 'Detached', S: 'SemiDetached', T: 'Terraced', F: 'Flat' };

interface Stock {
  n: number;
  sumBase: number;
}

/**
 * UK HPI full file from the same growth model: an area's average price in a month is the
 * mean true value of its housing stock (base values × district index), by property type
 * too; the index is that average relative to 2023-01; sales volumes count the region's
 * sales. Seasonally adjusted columns exist only for countries (as in the real file).
 */
export class HpiAccumulator {
  private stock = new Map<string, Stock>(); // `${district}|${type}`
  private volume = new Map<string, [number, number]>(); // `${la}|${month}` → [new, old]

  addProperty(p: Property): void {
    const k = `${p.district.code}|${p.type}`;
    const s = this.stock.get(k) ?? { n: 0, sumBase: 0 };
    s.n++;
    s.sumBase += p.baseValue;
    this.stock.set(k, s);
  }

  addSale(p: Property, month: MonthIdx, newBuild: boolean): void {
    const k = `${p.town.laCode}|${month}`;
    const v = this.volume.get(k) ?? [0, 0];
    v[newBuild ? 0 : 1]++;
    this.volume.set(k, v);
  }

  /** Rows for every LA of the plan and every country it touches, months 2000-01 … last, by date then name. */
  rows(plan: District[], index: AreaIndex, last: MonthIdx): string[] {
    const areas: { name: string; code: string; districts: District[]; las: string[]; country: boolean }[] = [];
    for (const town of TOWNS) {
      const ds = plan.filter((d) => d.town === town);
      if (ds.length) areas.push({ name: town.laName, code: town.laCode, districts: ds, las: [town.laCode], country: false });
    }
    for (const c of ['E', 'W', 'S'] as const) {
      const ds = plan.filter((d) => d.town.country === c);
      if (ds.length) areas.push({ name: COUNTRY_CODES[c].name, code: COUNTRY_CODES[c].ctry, districts: ds, las: [...new Set(ds.map((d) => d.town.laCode))], country: true });
    }
    areas.sort((a, b) => a.name.localeCompare(b.name));
    const base = monthOf(BASE_MONTH);
    const level = (ds: District[], m: MonthIdx, types: PropType[]): number | undefined => {
      let n = 0;
      let v = 0;
      for (const d of ds) for (const t of types) {
        const s = this.stock.get(`${d.code}|${t}`);
        if (!s) continue;
        n += s.n;
        v += (s.sumBase * index.at(d.code, m)) / 100;
      }
      return n === 0 ? undefined : v / n;
    };
    // Level of each area and type set in every month, computed once.
    const n = last - index.start + 1;
    const sets: [string, PropType[]][] = [['', TYPES], ...TYPES.map((t): [string, PropType[]] => [TYPE_COL[t], [t]])];
    const levels = areas.map((a) => sets.map(([, types]) => {
      const b = level(a.districts, base, types);
      if (b === undefined) return undefined;
      const arr = new Float64Array(n);
      for (let i = 0; i < n; i++) arr[i] = level(a.districts, index.start + i, types)!;
      return { arr, base: b };
    }));
    const out: string[] = [];
    for (let m = index.start; m <= last; m++) {
      const i = m - index.start;
      areas.forEach((a, ai) => {
        const cells: Record<string, string> = {};
        cells.Date = `01/${String(monthNum(m)).padStart(2, '0')}/${monthYear(m)}`;
        cells.RegionName = a.name;
        cells.AreaCode = a.code;
        sets.forEach(([prefix], si) => {
          const lv = levels[ai]![si];
          if (!lv) return;
          const now = lv.arr[i]!;
          const idx = (k: number) => (100 * lv.arr[k]!) / lv.base;
          cells[prefix === '' ? 'AveragePrice' : `${prefix}Price`] = prefix === '' ? String(Math.round(now)) : `${Math.round(now)}.0`;
          cells[prefix === '' ? 'Index' : `${prefix}Index`] = idx(i).toFixed(1);
          if (i >= 1) cells[`${prefix}1m%Change`] = (100 * (idx(i) / idx(i - 1) - 1)).toFixed(1);
          if (i >= 12) cells[`${prefix}12m%Change`] = (100 * (idx(i) / idx(i - 12) - 1)).toFixed(1);
          if (prefix === '' && a.country) {
            const sa = seasonality(base) / seasonality(m);
            cells.IndexSA = (idx(i) * sa).toFixed(1);
            cells.AveragePriceSA = `${Math.round(now * sa)}.0`;
          }
        });
        let nNew = 0;
        let nOld = 0;
        for (const la of a.las) {
          const v = this.volume.get(`${la}|${m}`);
          if (v) {
            nNew += v[0];
            nOld += v[1];
          }
        }
        cells.SalesVolume = `${nNew + nOld}.0`;
        cells.NewSalesVolume = `${nNew}.0`;
        cells.OldSalesVolume = `${nOld}.0`;
        out.push(UKHPI_FULL_HEADER.map((h) => cells[h] ?? '').join(',') + '\n');
      });
    }
    return out;
  }
}
