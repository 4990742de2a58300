/**
 * Every parameter of the synthetic region in one place. docs/synthetic-region.md explains
 * each one and where its value comes from; change them there and here together.
 */

export const GENERATOR_VERSION = '1.0.0';

/** The generator's "today": the last day of history. A parameter, never the wall clock. */
export const DEFAULT_TODAY = '2025-09-30';
/** First month of the price history (Price Paid, HPI, ground-truth index). */
export const HISTORY_START = '2000-01';
/** Month in which the hedonic base values are expressed (the UK HPI reference month: index 100). */
export const BASE_MONTH = '2023-01';
/** EPCs exist from October 2008 (marketed sales needed one from then). */
export const EPC_START = '2008-10-01';
/** Inside Airbnb scrape happens this many days before `today`. */
export const SCRAPE_LAG_DAYS = 4;

export type Country = 'E' | 'W' | 'S';
export type PropType = 'D' | 'S' | 'T' | 'F';

export interface DistrictSpec {
  /** Postcode district (outward code). */
  code: string;
  /** Offset of the district centre from the town centre, metres (easting, northing). */
  offset: [number, number];
  /** Price per m² relative to the town's. */
  ppsqm: number;
  /** 0 suburban … 1 city centre: drives the flat share and short-let density. */
  urban: number;
  /** Locality name used in addresses, when the district has one. */
  locality?: string;
  /** Student / HMO area: room lets, and an Article 4 direction over it. */
  student?: boolean;
  /** Historic core: a conservation area over it. */
  historic?: boolean;
}

export interface TownSpec {
  key: string;
  country: Country;
  /** Post town as in addresses and Price Paid town_city. */
  postTown: string;
  /** Local authority GSS code and names as each source spells them. */
  laCode: string;
  laName: string; // UK HPI RegionName
  ppdDistrict: string;
  ppdCounty: string;
  epcLaLabel: string;
  /** ONSPD county (oscty) and region (rgn) codes. */
  countyCode: string;
  regionCode: string;
  /** Share of the region's addresses. */
  weight: number;
  /** Town centre, British National Grid metres. */
  centre: [number, number];
  /** Hedonic price per m² at BASE_MONTH for a semi of typical size, GBP. */
  ppsqm: number;
  /** Gross yield of a semi-detached house at the town's median value. */
  grossYield: number;
  /** Monthly rent of one room in a shared house, GBP, at `today`. */
  roomRent: number;
  /** Base probability that an address is listed on Inside Airbnb. */
  strRate: number;
  /** Nightly rate of a one-bedroom entire home at `today`, GBP (annual mean). */
  adr1Bed: number;
  /** Extra flat share on top of the urban model (tenement cities). */
  flatBias: number;
  /** Direction of the town's river, radians from east. */
  riverAngle: number;
  /** Log-deviation of the town's price path from the national one: [YYYY-MM, delta] anchors. */
  priceTilt: [string, number][];
  /** First UPRN of the town (UPRNs are allocated sparsely upwards from here). */
  uprnBase: number;
  /** planning.data.gov.uk organisation entity of the council; '' outside England (the platform covers England only). */
  orgEntity: string;
  districts: DistrictSpec[];
  /**
   * Postcode areas the town's extra districts go on into once its own area's run out at 99
   * (a national-size region's Bristol: region.ts). Real areas, invented districts.
   */
  overflowAreas?: string[];
}

export const TOWNS: TownSpec[] = [
  {
    key: 'bristol', country: 'E', postTown: 'BRISTOL', laCode: 'E06000023', laName: 'City of Bristol',
    ppdDistrict: 'CITY OF BRISTOL', ppdCounty: 'CITY OF BRISTOL', epcLaLabel: 'Bristol, City of',
    countyCode: 'E99999999', regionCode: 'E12000009', weight: 0.42, centre: [358900, 172900],
    ppsqm: 4300, grossYield: 0.05, roomRent: 720, strRate: 0.006, adr1Bed: 80, flatBias: 0,
    riverAngle: 0.35, priceTilt: [['2000-01', 0.04], ['2008-01', 0.02], ['2013-01', 0.05], ['2017-06', 0], ['2025-12', -0.01]],
    uprnBase: 200_000_000, orgEntity: '23', overflowAreas: ['BA', 'TA', 'SN', 'DT'],
    districts: [
      { code: 'BS1', offset: [0, 0], ppsqm: 1.1, urban: 1, historic: true },
      { code: 'BS2', offset: [1000, 600], ppsqm: 0.85, urban: 0.8, locality: 'ST PHILIPS' },
      { code: 'BS3', offset: [-800, -1500], ppsqm: 0.92, urban: 0.6, locality: 'BEDMINSTER' },
      { code: 'BS4', offset: [1800, -2200], ppsqm: 0.8, urban: 0.35, locality: 'KNOWLE' },
      { code: 'BS5', offset: [2200, 1200], ppsqm: 0.82, urban: 0.55, locality: 'EASTON' },
      { code: 'BS6', offset: [-300, 2200], ppsqm: 1.15, urban: 0.6, locality: 'REDLAND', student: true },
      { code: 'BS7', offset: [400, 3600], ppsqm: 1.05, urban: 0.45, locality: 'BISHOPSTON', student: true },
      { code: 'BS8', offset: [-1800, 400], ppsqm: 1.4, urban: 0.75, locality: 'CLIFTON', student: true, historic: true },
      { code: 'BS9', offset: [-2500, 4500], ppsqm: 1.2, urban: 0.25, locality: 'WESTBURY-ON-TRYM' },
      { code: 'BS13', offset: [-1500, -5000], ppsqm: 0.7, urban: 0.2, locality: 'BISHOPSWORTH' },
      { code: 'BS14', offset: [2500, -5000], ppsqm: 0.78, urban: 0.2, locality: 'HENGROVE' },
      { code: 'BS16', offset: [4500, 3500], ppsqm: 0.85, urban: 0.3, locality: 'FISHPONDS' },
    ],
  },
  {
    key: 'stroud', country: 'E', postTown: 'STROUD', laCode: 'E07000082', laName: 'Stroud',
    ppdDistrict: 'STROUD', ppdCounty: 'GLOUCESTERSHIRE', epcLaLabel: 'Stroud',
    countyCode: 'E10000013', regionCode: 'E12000009', weight: 0.08, centre: [385000, 205200],
    ppsqm: 3500, grossYield: 0.045, roomRent: 560, strRate: 0.004, adr1Bed: 75, flatBias: 0,
    riverAngle: -0.2, priceTilt: [['2000-01', 0.02], ['2010-01', 0], ['2021-01', 0.02], ['2025-12', 0.02]],
    uprnBase: 100_120_000, orgEntity: '327',
    districts: [
      { code: 'GL5', offset: [0, 0], ppsqm: 1, urban: 0.4, historic: true },
      { code: 'GL6', offset: [3000, 2000], ppsqm: 1.05, urban: 0.1, locality: 'CHALFORD' },
      { code: 'GL10', offset: [-3500, 1500], ppsqm: 0.9, urban: 0.2, locality: 'STONEHOUSE' },
    ],
  },
  {
    key: 'cardiff', country: 'W', postTown: 'CARDIFF', laCode: 'W06000015', laName: 'Cardiff',
    ppdDistrict: 'CARDIFF', ppdCounty: 'CARDIFF', epcLaLabel: 'Cardiff',
    countyCode: 'W99999999', regionCode: 'W99999999', weight: 0.22, centre: [318300, 176300],
    ppsqm: 3200, grossYield: 0.052, roomRent: 520, strRate: 0.004, adr1Bed: 70, flatBias: 0,
    riverAngle: 1.35, priceTilt: [['2000-01', -0.02], ['2008-01', 0.03], ['2013-01', -0.03], ['2020-01', -0.02], ['2022-06', 0.01], ['2025-12', -0.01]],
    uprnBase: 100_090_000_000, orgEntity: '',
    districts: [
      { code: 'CF10', offset: [0, -500], ppsqm: 0.95, urban: 1, historic: true },
      { code: 'CF11', offset: [-1500, -300], ppsqm: 0.95, urban: 0.6, locality: 'CANTON' },
      { code: 'CF14', offset: [0, 4000], ppsqm: 1.05, urban: 0.3, locality: 'WHITCHURCH' },
      { code: 'CF23', offset: [2500, 3000], ppsqm: 1.15, urban: 0.25, locality: 'CYNCOED' },
      { code: 'CF24', offset: [1800, 800], ppsqm: 0.85, urban: 0.7, locality: 'ROATH', student: true },
      { code: 'CF5', offset: [-3500, 0], ppsqm: 0.8, urban: 0.3, locality: 'ELY' },
      { code: 'CF3', offset: [5000, 2000], ppsqm: 0.78, urban: 0.25, locality: 'RUMNEY' },
    ],
  },
  {
    key: 'edinburgh', country: 'S', postTown: 'EDINBURGH', laCode: 'S12000036', laName: 'City of Edinburgh',
    ppdDistrict: 'CITY OF EDINBURGH', ppdCounty: 'CITY OF EDINBURGH', epcLaLabel: 'City of Edinburgh',
    countyCode: 'S99999999', regionCode: 'S99999999', weight: 0.2, centre: [325800, 673600],
    ppsqm: 4000, grossYield: 0.05, roomRent: 760, strRate: 0.01, adr1Bed: 95, flatBias: 0.25,
    riverAngle: 0.9, priceTilt: [['2000-01', -0.1], ['2008-01', 0.02], ['2014-01', -0.06], ['2020-01', -0.02], ['2025-12', 0]],
    uprnBase: 906_000_000, orgEntity: '',
    districts: [
      { code: 'EH1', offset: [0, 0], ppsqm: 1.25, urban: 1, historic: true },
      { code: 'EH3', offset: [-800, -300], ppsqm: 1.3, urban: 0.9, historic: true },
      { code: 'EH6', offset: [1500, 2500], ppsqm: 0.95, urban: 0.6, locality: 'LEITH' },
      { code: 'EH7', offset: [1200, 900], ppsqm: 1.0, urban: 0.75 },
      { code: 'EH9', offset: [500, -1800], ppsqm: 1.2, urban: 0.6, locality: 'MARCHMONT', student: true },
      { code: 'EH10', offset: [-600, -2800], ppsqm: 1.25, urban: 0.35, locality: 'MORNINGSIDE' },
      { code: 'EH11', offset: [-2500, -1500], ppsqm: 0.85, urban: 0.5, locality: 'GORGIE' },
      { code: 'EH16', offset: [2000, -3500], ppsqm: 0.8, urban: 0.25, locality: 'LIBERTON' },
    ],
  },
  {
    key: 'city-of-london', country: 'E', postTown: 'LONDON', laCode: 'E09000001', laName: 'City of London',
    ppdDistrict: 'CITY OF LONDON', ppdCounty: 'GREATER LONDON', epcLaLabel: 'City of London',
    countyCode: 'E99999999', regionCode: 'E12000007', weight: 0.02, centre: [532400, 181400],
    ppsqm: 12500, grossYield: 0.037, roomRent: 1150, strRate: 0.012, adr1Bed: 150, flatBias: 0.3,
    riverAngle: 0.05, priceTilt: [['2000-01', -0.12], ['2009-01', -0.1], ['2016-06', 0.08], ['2025-12', 0]],
    uprnBase: 100_023_000_000, orgEntity: '99',
    districts: [
      { code: 'EC1A', offset: [-300, 400], ppsqm: 1, urban: 1, historic: true },
      { code: 'EC2Y', offset: [0, 300], ppsqm: 0.95, urban: 1 },
      { code: 'EC4M', offset: [-400, -200], ppsqm: 1.05, urban: 1, historic: true },
    ],
  },
  {
    key: 'westminster', country: 'E', postTown: 'LONDON', laCode: 'E09000033', laName: 'City of Westminster',
    ppdDistrict: 'CITY OF WESTMINSTER', ppdCounty: 'GREATER LONDON', epcLaLabel: 'Westminster',
    countyCode: 'E99999999', regionCode: 'E12000007', weight: 0.06, centre: [529300, 181000],
    ppsqm: 14000, grossYield: 0.035, roomRent: 1250, strRate: 0.012, adr1Bed: 165, flatBias: 0.3,
    riverAngle: -0.4, priceTilt: [['2000-01', -0.15], ['2009-01', -0.12], ['2016-06', 0.1], ['2025-12', 0]],
    uprnBase: 100_025_000_000, orgEntity: '192',
    districts: [
      { code: 'W1T', offset: [0, 500], ppsqm: 1, urban: 1, historic: true },
      { code: 'W1D', offset: [300, 0], ppsqm: 1.05, urban: 1 },
      { code: 'W1F', offset: [-200, 100], ppsqm: 1.05, urban: 1 },
      { code: 'W2', offset: [-2800, 300], ppsqm: 0.9, urban: 0.8, locality: 'BAYSWATER' },
    ],
  },
];

export const COUNTRY_CODES: Record<Country, { ctry: string; name: string }> = {
  E: { ctry: 'E92000001', name: 'England' },
  W: { ctry: 'W92000004', name: 'Wales' },
  S: { ctry: 'S92000003', name: 'Scotland' },
};

/**
 * National house price path (UK HPI average price, GBP, rounded), anchors interpolated
 * log-linearly: the 2000s boom, the 2007 peak, the 2009 trough, flat 2010–12, growth to
 * the 2022 peak, the 2023 dip.
 */
export const NATIONAL_PRICE_ANCHORS: [string, number][] = [
  ['2000-01', 84_000], ['2002-01', 103_000], ['2004-01', 145_000], ['2005-01', 163_000],
  ['2007-01', 180_000], ['2007-09', 190_000], ['2009-03', 154_000], ['2010-01', 167_000],
  ['2012-01', 164_000], ['2013-01', 165_000], ['2014-01', 175_000], ['2016-01', 200_000],
  ['2018-01', 224_000], ['2020-01', 232_000], ['2021-01', 250_000], ['2022-01', 273_000],
  ['2022-11', 294_000], ['2023-08', 285_000], ['2024-01', 282_000], ['2025-01', 290_000],
  ['2025-09', 296_000], ['2026-12', 302_000],
];

/** Month-of-year multiplier on prices (Jan…Dec): spring/summer high, winter low, mean ≈ 1. */
export const PRICE_SEASONALITY = [0.985, 0.985, 0.992, 0.998, 1.003, 1.01, 1.015, 1.015, 1.008, 1.003, 0.998, 0.995];

/** District deviation from its town: AR(1) on monthly log level, plus a linear drift per year. */
export const DISTRICT_AR = { phi: 0.97, sd: 0.006, driftSdPerYear: 0.006 };

/** Hedonic value model. value = ppsqm × district × refArea × (area/refArea)^elasticity × multipliers. */
export const HEDONIC = {
  refArea: 85,
  areaElasticity: 0.8,
  type: { D: 1.12, S: 1.0, T: 0.95, F: 0.9 } as Record<PropType, number>,
  qualitySd: 0.08, // log value per SD of unobserved quality
  unitPremiumSd: 0.07, // log, shared by a postcode unit (street quality)
  epcPerBand: 0.015, // log value per EPC band above D
  conservation: 0.05,
  floodZone3: -0.05,
  floodZone2: -0.02,
  newBuild: 0.05, // built 2012 or later
  period: 0.03, // houses built before 1900
  postWar: -0.04, // built 1950–1982
};

/**
 * Sale price noise: log(price / true value) ~ a two-component normal mixture: most sales
 * near value, a few far off (family sales, distressed sales, unrecorded condition).
 * SD of the mixture ≈ 0.135; category B (additional price paid: repossessions, company
 * buyers) sells 8% below value on average.
 */
export const SALE_NOISE = { coreSd: 0.11, tailSd: 0.35, tailShare: 0.05, categoryBShare: 0.04, categoryBMean: -0.08 };

/** Holding periods (years) between sales: lognormal, median by type; some never sell in the window. */
export const HOLDING = { median: { D: 16, S: 14, T: 13, F: 10 } as Record<PropType, number>, sigma: 0.55, neverShare: 0.35 };

/** Share of addresses that are flats: base + perUrban × district urbanity + the town's flatBias. */
export const FLAT_SHARE = { base: 0.08, perUrban: 0.6 };

/** Floor area medians (m²) by type and bedrooms; lognormal spread. */
export const FLOOR_AREA: Record<PropType, Record<number, number>> = {
  F: { 1: 48, 2: 66, 3: 85, 4: 105 },
  T: { 1: 55, 2: 70, 3: 88, 4: 110, 5: 135 },
  S: { 2: 75, 3: 92, 4: 120, 5: 150 },
  D: { 2: 90, 3: 115, 4: 150, 5: 190, 6: 240 },
};
export const FLOOR_AREA_SD = 0.14;

/** Bedroom mix by type. */
export const BEDROOMS: Record<PropType, [number, number][]> = {
  F: [[1, 0.42], [2, 0.45], [3, 0.11], [4, 0.02]],
  T: [[1, 0.04], [2, 0.32], [3, 0.48], [4, 0.13], [5, 0.03]],
  S: [[2, 0.15], [3, 0.62], [4, 0.19], [5, 0.04]],
  D: [[2, 0.05], [3, 0.35], [4, 0.42], [5, 0.14], [6, 0.04]],
};

/** Rents. Observed lets scatter around the true rent with this log SD (≥ 0.15 by contract). */
export const RENT = {
  typeYieldAdj: { D: -0.006, S: 0, T: 0.003, F: 0.008 } as Record<PropType, number>,
  cheapnessElasticity: -0.15,
  observedSd: 0.17,
  privateRentedShare: 0.2,
  hmoShareStudent: 0.08,
  hmoShareOther: 0.01,
  evidenceMonths: 36,
  meanTenancyMonths: 20,
  /** Annual private rent growth by year (ONS PIPR-like). */
  growth: { 2015: 0.015, 2016: 0.015, 2017: 0.012, 2018: 0.01, 2019: 0.012, 2020: 0.014, 2021: 0.022, 2022: 0.045, 2023: 0.08, 2024: 0.085, 2025: 0.06, 2026: 0.04 } as Record<number, number>,
};

/** Short-term lets. Observed price and activity scatter around the truth with ≥ 0.15 log SD. */
export const STR = {
  roomTypes: [['Entire home/apt', 0.7], ['Private room', 0.285], ['Hotel room', 0.005], ['Shared room', 0.01]] as [string, number][],
  adrPerExtraBedroom: 0.3, // ADR multiple per bedroom beyond one
  roomAdrFactor: 0.5, // private room vs one-bed entire home
  adrQualitySd: 0.12,
  observedPriceSd: 0.18,
  occupancyMean: 0.55,
  occupancySd: 0.15,
  /** Month-of-year multipliers (Jan…Dec) on ADR and on occupancy. */
  adrSeason: [0.82, 0.85, 0.92, 0.98, 1.03, 1.1, 1.18, 1.2, 1.05, 0.97, 0.92, 0.98],
  occSeason: [0.7, 0.78, 0.88, 0.98, 1.04, 1.12, 1.2, 1.22, 1.06, 0.98, 0.86, 0.92],
  /** Edinburgh's August festival on top. */
  festivalAugust: 1.4,
  adrGrowthPerYear: 0.04,
  reviewRate: 0.5, // share of stays that leave a review (Inside Airbnb's assumption)
  inactiveShare: 0.22, // listings from a previous scrape: no price, no future bookings
  maxYearsActive: 12,
};

/** Mess: deliberate differences between sources, as shares of records. */
export const MESS = {
  ppdNoUprnShare: 0.015, // sales of addresses absent from the address base
  ppdSaonNumberOnly: 0.3, // `2` instead of `FLAT 2`
  ppdSuffixSpace: 0.5, // `32 A` instead of `32A`
  ppdStreetAbbrev: 0.06, // `RD` for ROAD etc.
  ppdStreetTypo: 0.02,
  ppdMissingLocality: 0.25,
  ppdPostcodeTypo: 0.004,
  ppdSaonMissing: 0.01, // flat sale without its flat number
  ppdNumberSlip: 0.003, // house number keyed wrongly (23 for 32, or 34 for 32)
  epcNoUprn: 0.08,
  epcMissingArea: 0.015,
  epcZeroArea: 0.01,
  epcRelodged: 0.04,
  epcAreaSd: 0.04,
  terminatedUnitShare: 0.03,
  listingEmptyPriceActive: 0.01,
};

/**
 * Address patterns of real records that differ between sources (docs/synthetic-region.md,
 * "Real address patterns"), as shares. Drawn from their own random streams, so planting
 * them leaves every other draw of the region as it was. Rates are set from the real linked
 * PPD/EPC sample (about 9% of its homes carry one of these; most of its flats do).
 */
export const ADDRESS_PATTERNS = {
  /** Conversions whose flats the address base names by floor (`GROUND FLOOR FLAT`). */
  floorNamedConversion: 0.3,
  /** Houses with a name as well as a number (`ROSE COTTAGE`, 12). */
  namedHouse: 0.05,
  /** Price Paid keys a named building's flat as `9 AVELEY HOUSE` in the PAON, no SAON. */
  ppdUnitInPaon: 0.05,
  /** Price Paid writes a floor flat's SAON short (`GROUND FLOOR`) or abbreviated (`GRD FLR FLAT`). */
  ppdFloorVariant: 0.4,
  /** Price Paid joins a Welsh street name's words (`HEOLYDERI`, as `MAESMAELOR` for `MAES MAELOR`). */
  ppdJoinedWelshStreet: 0.1,
  /** Certificates write a named building's flat as `Flat 84 Shire House`, `98 Napier Street`. */
  epcFlatBeforeBuilding: 0.4,
  /** Certificates write it as `84 Shire House`, `Napier Street`: a unit number read as a house number. */
  epcUnitBeforeBuilding: 0.2,
};

/**
 * The Scottish EPC Register's extract for the Scottish town (docs/synthetic-region.md,
 * "Energy certificates"). Lodgement triggers, re-lodging and floor-area errors are England
 * and Wales's (MESS); these are Scotland's own.
 */
export const SCOTTISH_EPC = {
  /** The extracts start with central lodgement of the current format (2012-13); earlier certificates are not in them. */
  start: '2013-01-01',
  /** Certificates without an OSG_REFERENCE_NUMBER, left to address matching (assumed; the register gazetteer-matches most). */
  noOsgReference: 0.03,
  /** Edinburgh's data zones (2011) run S01008677…S01009273. */
  dataZoneFirst: 8677,
  dataZones: 597,
};

/** Deliberately malformed rows planted per file (each counted exactly in expected-rejects.json). */
export const PLANTED_PER_FILE = 3;

/**
 * How the region's addresses are shared among the towns. `demo`: each town's `weight`, a
 * mix that gives Wales and Scotland enough homes to test at a few thousand addresses.
 * `national`: England, Wales and Scotland in proportion to their dwellings (England 25.0M,
 * DLUHC live table 104, 2023; Wales 1.45M, StatsWales dwelling stock estimates, 2023;
 * Scotland 2.7M, NRS household estimates, 2023), England's share split among its towns as
 * `NATIONAL_ENGLAND` says.
 */
export type Mix = 'demo' | 'national';
export const MIXES: readonly Mix[] = ['demo', 'national'];

export const NATIONAL_DWELLINGS = { E: 25_000_000, W: 1_450_000, S: 2_700_000 } as const satisfies Record<Country, number>;

/**
 * England's towns' shares of England in the national mix: Bristol (with its overflow areas)
 * takes most; each other town stays within its own postcode area (99 districts) and its
 * UPRN range up to 38 million addresses (units.ts, `UprnAllocator`).
 */
export const NATIONAL_ENGLAND: Record<string, number> = { bristol: 0.745, stroud: 0.117, 'city-of-london': 0.009, westminster: 0.129 };

/** Each town's weight in the mix, in `TOWNS` order (region.ts apportions the addresses by them). */
export function townWeights(mix: Mix): number[] {
  if (mix === 'demo') return TOWNS.map((t) => t.weight);
  const total = NATIONAL_DWELLINGS.E + NATIONAL_DWELLINGS.W + NATIONAL_DWELLINGS.S;
  return TOWNS.map((t) => {
    const country = NATIONAL_DWELLINGS[t.country] / total;
    if (t.country !== 'E') return country / TOWNS.filter((o) => o.country === t.country).length;
    const share = NATIONAL_ENGLAND[t.key];
    if (share === undefined) throw new Error(`no national share for the English town ${t.key}`);
    return country * share;
  });
}
