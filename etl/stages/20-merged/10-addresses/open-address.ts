import { isFloorUnit, normaliseText } from '../../../../schemas/address-normalise.ts';

/**
 * An address-base row from an energy certificate's free-text lines (the open-data address
 * base, docs/open-data.md). Assessors write the flat first ("Flat 2", "Flat 2, 8 Grange
 * Walk", "Ground Floor Flat, 102 Reedley Road", "Flat 84 Shire House, 98 Napier Street"),
 * then a building's name, then the numbered street, sometimes a locality or the town.
 * The unit rules are the matcher's for certificates (20-match-addresses/keys.ts, epcKey), so
 * a home's certificate and its address agree; the street is the last part that carries a
 * house number or a street word, so a trailing locality or town is not taken for it.
 */
export interface OpenAddressFields {
  sub_building: string | null;
  building_name: string | null;
  building_number: string | null;
  street_name: string | null;
  locality: string | null;
  post_town: string | null;
  /** One line in AddressBase's manner: upper case, parts joined by ", ", the postcode last. */
  address: string;
}

const UNIT_LINE = /^(FLAT|APARTMENT|UNIT|STUDIO|MAISONETTE)\b/;
const UNIT_ID = /^(\d+[A-Z]?|[A-Z])$/;
const HOUSE_NUMBER = /^(\d+[A-Z]?(?:-\d+[A-Z]?)?)\s+(.+)$/;
/** Words that end a street's name (normalised, so abbreviations are already expanded). */
const STREET_WORDS = new Set([
  'ROAD', 'STREET', 'AVENUE', 'LANE', 'DRIVE', 'CLOSE', 'WAY', 'CRESCENT', 'GARDENS', 'GROVE', 'PLACE', 'SQUARE', 'TERRACE',
  'COURT', 'PARADE', 'PARK', 'HILL', 'WALK', 'MEWS', 'ROW', 'VIEW', 'GREEN', 'RISE', 'WHARF', 'QUAY', 'BOULEVARD', 'HIGHWAY',
  'VALE', 'PATH', 'YARD', 'CAUSEWAY', 'EMBANKMENT', 'BROADWAY', 'CIRCUS', 'GATE', 'END', 'WYND', 'HEOL', 'FFORDD', 'STRYD',
]);

const clean = (s: string) => s.replace(/\s+/g, ' ').trim().toUpperCase();

export function openAddress(lines: readonly (string | null | undefined)[], posttown: string | null | undefined, postcode: string): OpenAddressFields {
  const parts = lines.flatMap((l) => (l ?? '').split(',')).map(clean).filter(Boolean);
  const town = posttown ? clean(posttown) : null;
  // A trailing copy of the postcode or the post town is not part of the street address.
  while (parts.length > 1 && (parts.at(-1) === clean(postcode) || (town !== null && parts.at(-1) === town))) parts.pop();
  let sub: string | null = null;
  if (parts.length > 1 && /^(FLAT|APARTMENT|UNIT|STUDIO|MAISONETTE)$/.test(parts[0]!)) parts.splice(0, 2, `${parts[0]} ${parts[1]}`);
  const first = parts[0];
  const firstNorm = normaliseText(first);
  if (first !== undefined && parts.length > 1 && isFloorUnit(firstNorm)) sub = parts.shift()!;
  else if (first !== undefined && UNIT_LINE.test(firstNorm)) {
    const ws = first.split(' ');
    if (ws.length > 2 && UNIT_ID.test(ws[1]!)) {
      sub = ws.slice(0, 2).join(' ');
      parts[0] = ws.slice(2).join(' ');
    } else if (parts.length > 1) sub = parts.shift()!;
  }
  // The street: the last part with a house number, else the last with a street word, else the last.
  let at = -1;
  for (let i = parts.length - 1; i >= 0 && at < 0; i--) if (HOUSE_NUMBER.test(parts[i]!)) at = i;
  for (let i = parts.length - 1; i >= 0 && at < 0; i--) if (normaliseText(parts[i]).split(' ').some((w) => STREET_WORDS.has(w))) at = i;
  if (at < 0) at = parts.length - 1;
  const streetPart = parts[at] ?? '';
  const m = HOUSE_NUMBER.exec(streetPart);
  const building_number = m ? m[1]! : null;
  const street_name = m ? m[2]! : streetPart || null;
  const building_name = parts.slice(0, Math.max(0, at)).join(', ') || null;
  const locality = parts.slice(at + 1).join(', ') || null;
  const line = [sub, building_name, [building_number, street_name].filter(Boolean).join(' ') || null, locality, town, clean(postcode)].filter(Boolean).join(', ');
  return { sub_building: sub, building_name, building_number, street_name, locality, post_town: town, address: line };
}
