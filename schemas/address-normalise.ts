/**
 * The canonical form of UK address text, shared by the ETL (matching sales and
 * certificates to UPRNs) and the service (the search index and queries): both sides
 * must normalise identically, so it lives here with the other contracts.
 */

/** Street-type and other common abbreviations, expanded to the long form. */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  RD: 'ROAD', AVE: 'AVENUE', AV: 'AVENUE', CRES: 'CRESCENT', CRESC: 'CRESCENT', CL: 'CLOSE',
  DR: 'DRIVE', GDNS: 'GARDENS', GRN: 'GREEN', GRV: 'GROVE', GR: 'GROVE', LN: 'LANE', PL: 'PLACE',
  SQ: 'SQUARE', TER: 'TERRACE', TERR: 'TERRACE', CT: 'COURT', PDE: 'PARADE', PK: 'PARK',
  HSE: 'HOUSE', FLT: 'FLAT', APT: 'APARTMENT', BLDG: 'BUILDING', BLDGS: 'BUILDINGS', CTR: 'CENTRE',
  EST: 'ESTATE', HL: 'HILL', MT: 'MOUNT', RDG: 'RIDGE', WK: 'WALK', WY: 'WAY', HWY: 'HIGHWAY',
  MWS: 'MEWS', BVD: 'BOULEVARD', BLVD: 'BOULEVARD', CIR: 'CIRCLE', CRT: 'COURT', LWR: 'LOWER',
  UPR: 'UPPER', GT: 'GREAT', NTH: 'NORTH', STH: 'SOUTH',
  // Floor descriptions of flats ("1st Flr Flat", "Grd Floor Flat") and plural building words.
  '1ST': 'FIRST', '2ND': 'SECOND', '3RD': 'THIRD', '4TH': 'FOURTH', GRD: 'GROUND', GND: 'GROUND', FLR: 'FLOOR',
  APTS: 'APARTMENTS', COTTS: 'COTTAGES',
};

/**
 * Upper-cases, turns punctuation into spaces (keeping the hyphen of number ranges),
 * joins a house number to a lone letter suffix ("32 A" → "32A"), expands abbreviations
 * and collapses white space. "ST" is SAINT where a name starts (first word of a
 * comma-separated part, or after a number: "12 ST JOHNS ROAD") and STREET otherwise
 * ("HIGH ST", "HIGH ST BATH", "ST 5"). Single letters are never expanded (N, E, S, W): in
 * addresses they are far more often flat letters.
 */
export function normaliseText(s: string | undefined): string {
  if (!s) return '';
  const out: string[] = [];
  for (const part of s.split(',')) {
    const words = splitWords(part);
    words.forEach((w, i) => {
      if (w !== 'ST') return void out.push(ABBREVIATIONS[w] ?? w);
      const next = words[i + 1];
      const prev = words[i - 1];
      const startsName = next !== undefined && !/^\d/.test(next) && (prev === undefined || /^\d/.test(prev));
      out.push(startsName ? 'SAINT' : 'STREET');
    });
  }
  return out.join(' ');
}

function splitWords(s: string): string[] {
  return s
    .toUpperCase()
    .replace(/[’'`]/g, '')
    .replace(/(\d)\s*-\s*(\d)/g, '$1-$2')
    .replace(/[^A-Z0-9-]+/g, ' ')
    .replace(/(^|\s)-+|-+(\s|$)/g, ' ')
    .replace(/\b(\d+)\s+([A-Z])\b(?!\s*[A-Z0-9]*\d)/g, '$1$2')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
}

/** Postcode to its canonical form: upper case, one space before the inward code. */
export function normalisePostcode(pc: string | undefined): string | undefined {
  if (!pc) return undefined;
  const compact = pc.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (!/^[A-Z]{1,2}[0-9][A-Z0-9]?[0-9][A-Z]{2}$/.test(compact)) return undefined;
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

/** Outward code ("BS1"), sector ("BS1 4") and area ("BS") of a canonical postcode. */
export function postcodeParts(pc: string): { area: string; outcode: string; sector: string } {
  const [outcode = '', inward = ''] = pc.split(' ');
  return { area: outcode.replace(/\d.*$/, ''), outcode, sector: `${outcode} ${inward.slice(0, 1)}` };
}

const UNIT_WORDS = new Set(['FLAT', 'APARTMENT', 'UNIT', 'ROOM', 'STUDIO', 'MAISONETTE']);
/** Words of a floor description ("GROUND FLOOR FLAT", "FLAT FIRST FLOOR", "BASEMENT"). */
const FLOOR_WORDS = new Set(['BASEMENT', 'LOWER', 'UPPER', 'GROUND', 'FIRST', 'SECOND', 'THIRD', 'FOURTH', 'TOP', 'FLOOR', 'GARDEN']);

/**
 * The unit identifier of a secondary address (SAON): "FLAT 2", "Apartment 2", "2" and
 * "FLAT 2," all give "2"; "FLAT 2A" gives "2A"; floor descriptions give the floor, in
 * whichever order the words come ("GROUND FLOOR FLAT", "Flat, Ground Floor" and "Grd Flr
 * Flat" all give "GROUND FLOOR"); other named units keep their words. Empty when there
 * is no secondary part.
 */
export function unitKey(saon: string | undefined): string {
  const t = normaliseText(saon);
  if (!t) return '';
  const words = t.split(' ').filter((w) => !UNIT_WORDS.has(w));
  if (words.length === 1 && /^\d+[A-Z]?$/.test(words[0]!)) return words[0]!;
  return words.join(' ') || t;
}

/** Whether a normalised part is a floor description of a flat ("GROUND FLOOR FLAT", "TOP FLOOR", "GARDEN FLAT", "BASEMENT"). */
export function isFloorUnit(part: string): boolean {
  const words = part.split(' ').filter(Boolean);
  const floors = words.filter((w) => FLOOR_WORDS.has(w));
  return floors.length > 0 && words.every((w) => FLOOR_WORDS.has(w) || UNIT_WORDS.has(w))
    && (floors.includes('FLOOR') || floors.includes('BASEMENT') || floors.length < words.length);
}

/** House numbers and letter-suffixed numbers in a text, in order ("32A", "12-14"). */
export function numberTokens(s: string): string[] {
  return normaliseText(s).split(' ').filter((w) => /^\d+[A-Z]?(-\d+[A-Z]?)?$/.test(w));
}

/**
 * The words of an address as the search index stores them: normalised, with a trailing
 * copy of its postcode removed. The ETL (index build) and the service (ranking) both use it.
 */
export function docWords(address: string, postcode: string): string[] {
  let t = normaliseText(address);
  const pc = normaliseText(postcode);
  if (pc && t.endsWith(pc)) t = t.slice(0, -pc.length);
  return t.split(' ').filter(Boolean);
}
