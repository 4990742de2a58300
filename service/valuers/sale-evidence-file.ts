import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BlockFileError, type BlockCache } from '../../lib/files/block-file.ts';
import { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import {
  SALE_EVIDENCE_AT as A, SALE_EVIDENCE_COLUMNS, SALE_EVIDENCE_FILE, SALE_EVIDENCE_POSTCODES_FILE, SALE_EVIDENCE_POSTCODE_AT as P,
  SALE_EVIDENCE_POSTCODE_COLUMNS, type SaleEvidenceExtra,
} from '../../lib/files/sale-evidence-file.ts';
import { nearestInCells } from '../../lib/geo/cell-nearest.ts';
import { median } from '../domain/stats.ts';
import {
  AGE_BANDS, SALE_MODEL, UNKNOWN_TYPE, compsFromAnyType, evidenceTie, sqftFromLevels, type Evidence, type SaleModelParams,
} from '../domain/valuation-models/sale.ts';

/** A sale near the home valued, as a nearest-k search keeps it. */
interface NearSale {
  uprn: number;
  month: number;
  logValue: number;
  z: number;
  type: number;
}

const tie = (a: NearSale, b: NearSale) => evidenceTie(a.uprn, a.month, a.logValue, b.uprn, b.month, b.logValue);
const placed = (x: number, y: number) => Number.isFinite(x) && Number.isFinite(y);
const sameColumns = (got: readonly { name: string; kind: string }[], want: readonly { name: string; kind: string }[]) =>
  JSON.stringify(got.map((c) => [c.name, c.kind])) === JSON.stringify(want.map((c) => [c.name, c.kind]));

/**
 * The sale valuer's evidence read where it lies (issue 46, ADR 0015 step 6): the ETL's
 * sale-evidence files (lib/files/sale-evidence-file.ts) through the build's page cache instead
 * of every sale, its level and an R-tree in the heap. A nearest-k search reads rings of grid
 * cells about the home (lib/geo/cell-nearest.ts), the same-postcode rung the postcode's rows;
 * the effects are the meta's. The estimates are the in-heap model's (`SaleEvidence`): the same
 * sales ranked the same way (`evidenceTie`), the same arithmetic (`sqftFromLevels`, `compsFromAnyType`).
 */
export class FileEvidence implements Evidence {
  private constructor(
    private readonly cells: KeyedRowsFile,
    private readonly postcodes: KeyedRowsFile,
    private readonly extra: SaleEvidenceExtra,
    readonly params: SaleModelParams,
    readonly typeLog: Float64Array,
    readonly ageLog: Float64Array,
  ) {}

  /**
   * The build's evidence files on `cache`, for values brought to `asOfMonth` (the area index's
   * last month); undefined when the build has none (an older ETL's: the evidence is made in the
   * heap). Files of another kind, cut short, of another month or another model's size term throw
   * a `BlockFileError` naming them.
   */
  static open(dir: string, cache: BlockCache, asOfMonth: number, params: SaleModelParams = SALE_MODEL): FileEvidence | undefined {
    const path = join(dir, SALE_EVIDENCE_FILE);
    if (!existsSync(path)) return undefined;
    const cells = KeyedRowsFile.open(path, cache);
    let postcodes: KeyedRowsFile | undefined;
    try {
      const extra = cells.meta.extra as Partial<SaleEvidenceExtra> | undefined;
      if (extra?.kind !== 'sale-evidence' || cells.meta.key.name !== 'cell' || cells.meta.key.kind !== 'num' || !sameColumns(cells.meta.columns, SALE_EVIDENCE_COLUMNS)) {
        throw new BlockFileError(`${path} is not a sale-evidence file (key ${cells.meta.key.name}, columns ${cells.meta.columns.map((c) => c.name).join(',')})`);
      }
      const { cell_m: cellM, type_log: typeLog, age_log: ageLog, sales } = extra;
      if (!(typeof cellM === 'number' && cellM >= 10) || !Array.isArray(typeLog) || typeLog.length !== 4 || !Array.isArray(ageLog) || ageLog.length !== AGE_BANDS.length || !(typeof sales === 'number' && sales >= 0)) {
        throw new BlockFileError(`${path}: its cell size, effects or sale count are missing`);
      }
      if (extra.as_of_month !== asOfMonth) throw new BlockFileError(`${path} brings values to month ${extra.as_of_month}, the build's index to ${asOfMonth}`);
      if (extra.size_beta !== params.sizeBeta) throw new BlockFileError(`${path} was made with size elasticity ${extra.size_beta}, the model's is ${params.sizeBeta}`);
      const pcPath = join(dir, SALE_EVIDENCE_POSTCODES_FILE);
      if (!existsSync(pcPath)) throw new BlockFileError(`${pcPath} is missing beside ${SALE_EVIDENCE_FILE}`);
      postcodes = KeyedRowsFile.open(pcPath, cache);
      const pcExtra = postcodes.meta.extra as { kind?: string; as_of_month?: number } | undefined;
      if (pcExtra?.kind !== 'sale-evidence-postcodes' || postcodes.meta.key.name !== 'postcode_id' || !sameColumns(postcodes.meta.columns, SALE_EVIDENCE_POSTCODE_COLUMNS)) {
        throw new BlockFileError(`${pcPath} is not a sale-evidence postcodes file (key ${postcodes.meta.key.name})`);
      }
      if (pcExtra.as_of_month !== asOfMonth) throw new BlockFileError(`${pcPath} brings values to month ${pcExtra.as_of_month}, the build's index to ${asOfMonth}`);
      return new FileEvidence(cells, postcodes, extra as SaleEvidenceExtra, params, Float64Array.from(typeLog), Float64Array.from(ageLog));
    } catch (e) {
      cells.close();
      postcodes?.close();
      throw e;
    }
  }

  get size(): number {
    return this.extra.sales;
  }

  sqftEstimate(x: number, y: number, uprn: number, type: number, areaSqft: number, age = UNKNOWN_TYPE, postcode = -1): { log: number; n: number } | null {
    if (this.size === 0) return null;
    const p = this.params;
    const oldest = this.extra.as_of_month - p.evidenceMaxAgeMonths;
    let zs: number[] = [];
    if (p.samePostcodeMin > 0 && postcode >= 0) {
      this.postcodes.rangeRaw(postcode, postcode, (b, at) => {
        const dv = this.view(b, at, this.postcodes);
        const o = b.byteOffset + at;
        if (dv.getFloat64(o + P.uprn, true) !== uprn && dv.getFloat64(o + P.month, true) >= oldest) zs.push(dv.getFloat64(o + P.z, true));
      });
      if (zs.length < p.samePostcodeMin) zs = [];
    }
    if (!zs.length && placed(x, y)) {
      zs = this.nearest(x, y, p.sqftK, (s) => s.uprn !== uprn && !Number.isNaN(s.z) && s.month >= oldest).map((s) => s.z);
    }
    return sqftFromLevels(zs, areaSqft, type, age, this.typeLog, this.ageLog, p);
  }

  compsEstimate(x: number, y: number, uprn: number, type: number): { log: number; n: number } | null {
    if (this.size === 0 || !placed(x, y)) return null;
    const p = this.params;
    const oldest = this.extra.as_of_month - p.evidenceMaxAgeMonths;
    // `latest` is checked as a row is read (a sale not its home's latest is no comparable).
    const fresh = (s: NearSale) => s.uprn !== uprn && s.month >= oldest;
    if (type < 4) {
      const same = this.nearest(x, y, p.compsK, (s) => fresh(s) && s.type === type, true);
      if (same.length >= p.compsMin) return { log: median(same.map((s) => s.logValue)), n: same.length };
    }
    const any = this.nearest(x, y, p.compsK, fresh, true);
    return compsFromAnyType(any.map((s) => s.logValue), any.map((s) => s.type), type, this.typeLog, p);
  }

  close(): void {
    this.cells.close();
    this.postcodes.close();
  }

  /** The `k` nearest sales within the model's radius that `keep` accepts (only homes' latest when `latestOnly`), ranked as the in-heap model ranks them. */
  private nearest(x: number, y: number, k: number, keep: (s: NearSale) => boolean, latestOnly = false): NearSale[] {
    return nearestInCells<NearSale>(x, y, k, this.params.radiusM, this.extra.cell_m, (lo, hi, offer) => {
      this.cells.rangeRaw(lo, hi, (b, at) => {
        const dv = this.view(b, at, this.cells);
        const o = b.byteOffset + at;
        if (latestOnly && dv.getFloat64(o + A.latest, true) !== 1) return;
        const s = this.scratch;
        s.uprn = dv.getFloat64(o + A.uprn, true); s.month = dv.getFloat64(o + A.month, true); s.z = dv.getFloat64(o + A.z, true); s.type = dv.getFloat64(o + A.type, true);
        if (!keep(s)) return;
        s.logValue = dv.getFloat64(o + A.log_value, true);
        // A row object only for the sales kept.
        offer(dv.getFloat64(o + A.x, true), dv.getFloat64(o + A.y, true), { ...s });
      });
    }, tie);
  }

  /** The row being read, before `keep` accepts it. */
  private readonly scratch: NearSale = { uprn: 0, month: 0, logValue: 0, z: 0, type: 0 };

  /** A DataView over the page's memory (several times Buffer.readDoubleLE's speed), refusing a row with a null (these files have none). */
  private dv: DataView | undefined;
  private view(b: Buffer, at: number, file: KeyedRowsFile): DataView {
    if (b[at] !== 0) throw new BlockFileError(`${file.path}: a row has a null value (the sale-evidence files have none)`);
    if (this.dv?.buffer !== b.buffer) this.dv = new DataView(b.buffer);
    return this.dv;
  }
}
