import {
  EPC_RATINGS,
  MINIMUM_LETTING_RATING,
  type Designation,
  type EpcRating,
  type RiskFlag,
  type Risks,
} from '../../schemas/api/risks.ts';
import { planningCoverage } from './planning-coverage.ts';
import { SCOTLAND } from './scotland.ts';

/**
 * Assembly of GET /v1/risks/{uprn} from what the build holds for one UPRN: its flags (the
 * `properties` row, the same result the property record and the HMO valuation read), the
 * designations containing it (`uprn_designations`) and the manifest's sources. Pure: no I/O.
 */

export const FLOOD_DATASET = 'flood-risk-zone';
const CONSERVATION = 'conservation-area';
const ARTICLE_4 = 'article-4-direction-area';
const LISTED = new Set(['listed-building', 'listed-building-outline']);

/** The flag columns of the property's `properties` row. */
export interface RiskRecord {
  uprn: number;
  address: string;
  postcode: string;
  /** The flags: null when unknown (outside England, the layers' coverage, or without a position). */
  flood_zone: number | null;
  flood_zone_2: boolean | null;
  flood_zone_3: boolean | null;
  conservation_area: boolean | null;
  article_4: boolean | null;
  listed_building: boolean | null;
  epc_current_rating: string | null;
  epc_potential_rating: string | null;
  /** England, Wales or Scotland (null when unknown). */
  country: string | null;
}

/** A `uprn_designations` row. */
export interface DesignationRow extends Designation {
  flood_risk_level: number | null;
}

/** The parts of a manifest source this needs. */
export interface SourceAsOf {
  name: string;
  path: string;
  as_of: string | null;
}

const rating = (v: string | null): EpcRating | null => (EPC_RATINGS as readonly string[]).includes(v ?? '') ? (v as EpcRating) : null;

/** True when `r` is worse than the minimum rating for letting (F or G). */
export function belowLettingMinimum(r: EpcRating): boolean {
  return EPC_RATINGS.indexOf(r) > EPC_RATINGS.indexOf(MINIMUM_LETTING_RATING);
}

/**
 * The latest as-of date of the flood layers, of the other planning layers and of the EPC
 * files. A planning file is a flood layer when its file name says `flood-risk-zone`, as the
 * planning.data.gov.uk downloads are named.
 */
export function asOfBySource(sources: readonly SourceAsOf[], country: string | null = null): Risks['as_of'] {
  // A Scottish home's certificates come from the Scottish register's files.
  const epcSource = country === SCOTLAND ? 'epc_scotland' : 'epc';
  const latest = (keep: (s: SourceAsOf) => boolean): string | null =>
    sources.filter((s) => keep(s) && s.as_of !== null).reduce<string | null>((m, s) => (m === null || s.as_of! > m ? s.as_of : m), null);
  const isFlood = (s: SourceAsOf) => s.name === 'planning' && /flood-risk-zone/.test(s.path.split('/').pop() ?? '');
  return {
    flood: latest(isFlood),
    planning: latest((s) => s.name === 'planning' && !isFlood(s)),
    energy: latest((s) => s.name === epcSource),
  };
}

/** "A (ref), B" from the designations of one kind; the dataset name when none has a name. */
function names(ds: readonly Designation[]): string {
  const parts = ds.map((d) => d.name ?? d.reference ?? (d.entity === null ? null : `entity ${d.entity}`)).filter((n): n is string => n !== null);
  return [...new Set(parts)].join(', ');
}

/** The overall list of flags, each with a short explanation, in RISK_FLAG_CODES order. */
export function riskFlags(r: RiskRecord, designations: readonly Designation[], current: EpcRating | null): RiskFlag[] {
  const flags: RiskFlag[] = [];
  const of = (pred: (d: Designation) => boolean) => designations.filter(pred);
  const named = (pred: (d: Designation) => boolean) => {
    const n = names(of(pred));
    return n === '' ? '' : ` (${n})`;
  };
  if (r.flood_zone_3) {
    flags.push({ code: 'flood_zone_3', message: `In Flood Zone 3${named((d) => d.dataset === FLOOD_DATASET)}: land with a 1% or greater annual chance of flooding from rivers, or 0.5% from the sea.` });
  } else if (r.flood_zone_2) {
    flags.push({ code: 'flood_zone_2', message: `In Flood Zone 2${named((d) => d.dataset === FLOOD_DATASET)}: land with a 0.1% to 1% annual chance of flooding from rivers, or 0.1% to 0.5% from the sea.` });
  }
  if (r.conservation_area) {
    flags.push({ code: 'conservation_area', message: `In a conservation area${named((d) => d.dataset === CONSERVATION)}: demolition, many external alterations and work on trees need consent.` });
  }
  if (r.article_4) {
    flags.push({ code: 'article_4', message: `In an Article 4 direction area${named((d) => d.dataset === ARTICLE_4)}: some permitted development rights (often conversion to a small HMO) are removed, so planning permission is needed.` });
  }
  if (r.listed_building) {
    flags.push({ code: 'listed_building', message: `A listed building${named((d) => LISTED.has(d.dataset))}: works affecting its character need listed building consent.` });
  }
  const known = new Set([FLOOD_DATASET, CONSERVATION, ARTICLE_4, ...LISTED]);
  const others = [...new Set(designations.map((d) => d.dataset).filter((d) => !known.has(d)))];
  for (const dataset of others) {
    flags.push({ code: 'other_designation', message: `Within ${dataset}${named((d) => d.dataset === dataset)}.` });
  }
  if (current === null) {
    flags.push({ code: 'no_epc', message: 'No energy performance certificate on record: one is needed to sell or let the property.' });
  } else if (mees(r) && belowLettingMinimum(current)) {
    flags.push({
      code: 'epc_below_letting_minimum',
      message: `EPC rating ${current} is below the minimum of ${MINIMUM_LETTING_RATING} for letting: a new tenancy needs improvements first or a registered exemption.`,
    });
  }
  return flags;
}

/** Whether the England and Wales minimum standard for letting applies: not in Scotland. */
function mees(r: RiskRecord): boolean {
  return r.country !== SCOTLAND;
}

/** The layers each planning flag is read from; a flag none of whose layers the build loaded is unknown. */
const FLAG_LAYERS = {
  conservation_area: [CONSERVATION],
  article_4: [ARTICLE_4],
  listed_building: [...LISTED],
} as const;

/** The planning.data.gov.uk datasets the build loaded: its planning files' names without extension. */
export function loadedLayers(sources: readonly SourceAsOf[]): Set<string> {
  return new Set(sources.filter((s) => s.name === 'planning').map((s) => (s.path.split('/').pop() ?? '').replace(/\.[^.]*$/, '')));
}

/**
 * The record with every planning flag whose layer is not in the build made null (unknown, never
 * "not designated"), and the coverage note naming those layers (docs/api.md, "Coverage").
 */
export function withUnloadedLayers(r: RiskRecord, sources: readonly SourceAsOf[]): { record: RiskRecord; missing: string[] } {
  const loaded = loadedLayers(sources);
  const missing = (Object.keys(FLAG_LAYERS) as (keyof typeof FLAG_LAYERS)[]).filter((f) => !FLAG_LAYERS[f].some((d) => loaded.has(d)));
  const record = { ...r };
  for (const f of missing) record[f] = null;
  if (!loaded.has(FLOOD_DATASET)) Object.assign(record, { flood_zone: null, flood_zone_2: null, flood_zone_3: null });
  return { record, missing: loaded.has(FLOOD_DATASET) ? missing : ['flood_zone', ...missing] };
}

/** The whole response for one property. */
export function assembleRisks(raw: RiskRecord, rows: readonly DesignationRow[], sources: readonly SourceAsOf[], buildId: string): Risks {
  const { record: r, missing } = withUnloadedLayers(raw, sources);
  const coverage = planningCoverage(r.country);
  const unloaded = missing.length === 0 ? null : `No layer for ${missing.join(', ')} is loaded in this build, so ${missing.length === 1 ? 'that flag is' : 'those flags are'} unknown (null), not false.`;
  const designation = (d: DesignationRow): Designation => ({ dataset: d.dataset, entity: d.entity, reference: d.reference, name: d.name });
  const current = rating(r.epc_current_rating);
  return {
    uprn: r.uprn,
    address: r.address,
    postcode: r.postcode,
    flood: {
      flood_zone: r.flood_zone,
      flood_zone_2: r.flood_zone_2,
      flood_zone_3: r.flood_zone_3,
      areas: rows.filter((d) => d.dataset === FLOOD_DATASET).map((d) => ({ ...designation(d), flood_risk_level: d.flood_risk_level })),
    },
    planning: {
      conservation_area: r.conservation_area,
      article_4: r.article_4,
      listed_building: r.listed_building,
      designations: rows.filter((d) => d.dataset !== FLOOD_DATASET).map(designation),
    },
    energy: {
      current_rating: current,
      potential_rating: rating(r.epc_potential_rating),
      minimum_rating_for_letting: mees(r) ? MINIMUM_LETTING_RATING : null,
      below_letting_minimum: current === null || !mees(r) ? null : belowLettingMinimum(current),
    },
    // Outside England no layer was loaded: the flags above are null, and this says why.
    coverage: unloaded === null || !coverage.covered ? coverage : { ...coverage, note: coverage.note === null ? unloaded : `${coverage.note} ${unloaded}` },
    flags: riskFlags(r, rows.map(designation), current),
    as_of: asOfBySource(sources, r.country),
    build_id: buildId,
  };
}
