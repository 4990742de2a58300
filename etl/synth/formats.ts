import { ONSPD_HEADER } from '../../schemas/sources/onspd.ts';
import { STREET_TYPES } from './names.ts';
import { ADDRESS_PATTERNS, MESS, COUNTRY_CODES } from './params.ts';
import { hashKey, rng, type Rng } from './prng.ts';
import { INCODE_LETTERS } from './region.ts';
import { csvAll, csvRow } from './out.ts';
import type { Sale } from './sales.ts';
import { isoDay, monthOfDay, yyyymm, type MonthIdx } from './time.ts';
import type { Property, Unit } from './units.ts';

/** Row renderers for each published format. Pure: all randomness comes from the caller's stream. */

const CLASSIFICATION = { D: 'RD02', S: 'RD03', T: 'RD04', F: 'RD06' } as const;

/** Canonical single-line address as AddressBase writes it. */
export function singleLine(p: Property): string {
  const numbered = [p.buildingNumber, p.street].filter(Boolean).join(' ');
  return [p.subBuilding, p.buildingName, numbered, p.locality, p.town.postTown, p.postcode].filter(Boolean).join(', ');
}

function code(prefix: string, key: string, digits = 8): string {
  return prefix + String(hashKey([key]) % 10 ** digits).padStart(digits, '0');
}

export function addressBaseRow(p: Property, lastUpdate: string): string {
  return csvRow([
    p.uprn, p.parentUprn, String(10_000_000 + (hashKey(['udprn', p.uprn]) % 89_999_999)),
    String(hashKey(['usrn', p.district.code, p.street]) % 89_999_999 + 10_000_000),
    `osgb1000${String(hashKey(['toid', p.uprn]) % 10 ** 10).padStart(10, '0')}`, CLASSIFICATION[p.type],
    `${p.e}.00`, `${p.n}.00`, p.lat, p.lng, '1', lastUpdate, singleLine(p), '', '',
    p.subBuilding, p.buildingName, p.buildingNumber, p.street, p.locality, p.town.postTown, p.town.postTown, '',
    p.postcode, `${1 + (p.uprn % 9)}${INCODE_LETTERS[p.uprn % 20]}`, p.town.laCode, 'I',
  ]);
}

export function osUprnRow(uprn: number, e: number, n: number, lat: string, lng: string): string {
  return `${uprn},${e}.00,${n}.00,${lat},${lng}\n`;
}

/** pcd7 / pcd8 / pcds as ONSPD writes them (outward code padded to 4 in pcd7 and pcd8). */
export function pcdForms(pcds: string): [string, string, string] {
  const [out, inw] = pcds.split(' ') as [string, string];
  const pcd7 = out.padEnd(4, ' ') + inw;
  return [pcd7, `${out.padEnd(4, ' ')} ${inw}`, pcds];
}

/** The LSOA a postcode is in, as ONSPD writes it (crime rows carry the same code). */
export function lsoaCode(u: Unit, pcds: string): string {
  const sector = `${u.district.code} ${pcds.split(' ')[1]![0]}`;
  return code(`${u.district.town.country}01`, `lsoa21-${sector}-${pcds.slice(-2, -1)}`, 6);
}

/** One ONSPD row for a live unit or its terminated predecessor: 52 columns, unquoted. */
export function onspdRow(u: Unit, pcds: string, lat: string, lng: string, dointr: MonthIdx, doterm: MonthIdx | undefined): string {
  const t = u.district.town;
  const c = t.country;
  const sector = `${u.district.code} ${pcds.split(' ')[1]![0]}`;
  const [pcd7, pcd8] = pcdForms(pcds);
  const lsoa = lsoaCode(u, pcds);
  const msoa = code(`${c}02`, `msoa21-${sector}`, 6);
  const oa = code(`${c}00`, `oa21-${pcds}`, 6);
  const ward = code(`${c}05`, `ward-${sector}`, 6);
  const v: Record<string, string> = {
    pcd7, pcd8, pcds, dointr: yyyymm(dointr), doterm: doterm === undefined ? '' : yyyymm(doterm),
    oscty: t.countyCode, ced: t.countyCode === `${c}99999999` ? `${c}99999999` : code('E58', `ced-${sector}`, 6),
    oslaua: t.laCode, osward: ward, parish: c === 'S' ? 'S99999999' : code(c === 'W' ? 'W04' : 'E43', `parish-${t.key}`, 6),
    usertype: '0', oseast1m: String(u.e), osnrth1m: String(u.n).padStart(7, '0'), osgrdind: '1',
    oshlthau: code(c === 'E' ? 'E18' : c === 'W' ? 'W11' : 'S08', `hlth-${t.key}`, 6), nhser: c === 'E' ? code('E40', `nhser-${t.key}`, 6) : `${c}99999999`,
    ctry: COUNTRY_CODES[c].ctry, rgn: t.regionCode, streg: '0', pcon: code(`${c}14`, `pcon-${u.district.code}`, 6),
    eer: code(`${c}15`, `eer-${t.regionCode}`, 6), teclec: code(`${c}24`, `teclec-${t.key}`, 6), ttwa: code(`${c}30`, `ttwa-${t.key}`, 6),
    pct: code(`${c}16`, `pct-${t.key}`, 6), itl: code(`${c}06`, `itl-${t.key}`, 6), statsward: '99ZZ00',
    oa01: code(`${c}00`, `oa01-${pcds}`, 6), casward: '99ZZ00', npark: `${c}99999999`, lsoa01: lsoa, msoa01: msoa,
    ur01ind: String(1 + (hashKey([sector]) % 5)), oac01: '3C2', oa11: oa, lsoa11: lsoa, msoa11: msoa,
    wz11: code(`${c}33`, `wz-${pcds}`, 6), sicbl: code(c === 'E' ? 'E38' : `${c}11`, `sicbl-${t.key}`, 6),
    bua11: code(`${c}34`, `bua-${t.key}`, 6), ru11ind: c === 'S' ? '1' : 'A1', oac11: '2B2', lat, long: lng,
    lep1: c === 'E' ? code('E37', `lep-${t.key}`, 6) : `${c}99999999`, lep2: '', pfa: code(`${c}23`, `pfa-${t.key}`, 6),
    imd: String(1 + (hashKey(['imd', lsoa]) % (c === 'E' ? 32844 : c === 'W' ? 1909 : 6976))),
    calncv: code(`${c}56`, `calncv-${t.key}`, 6), icb: c === 'E' ? code('E54', `icb-${t.key}`, 6) : `${c}99999999`,
    oa21: oa, lsoa21: lsoa, msoa21: msoa,
  };
  return ONSPD_HEADER.map((h) => v[h] ?? '').join(',') + '\n';
}

function typo(r: Rng, word: string): string {
  if (word.length < 5) return word;
  const i = r.int(1, word.length - 3);
  return r.chance(0.5) ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2) : word.slice(0, i) + word.slice(i + 1);
}

/** Postcode with one inward letter replaced: the kind of slip a conveyancer makes. */
function postcodeTypo(r: Rng, pc: string): string {
  const last = pc[pc.length - 1]!;
  let repl = last;
  while (repl === last) repl = r.pick([...INCODE_LETTERS]);
  return pc.slice(0, -1) + repl;
}

const FLOOR_ABBREV: Record<string, string> = { GROUND: 'GRD', FIRST: '1ST', SECOND: '2ND' };

export interface PpdAddress {
  paon: string;
  saon: string;
  street: string;
  locality: string;
  postcode: string;
}

/** Price Paid's rendering of the address: its own conventions and the slips of the people who key it. */
export function ppdAddress(r: Rng, p: Property, month: MonthIdx, seed: number): PpdAddress {
  // Real address patterns (ADDRESS_PATTERNS) draw from their own stream.
  const pr = rng(seed, 'ppd-pattern', p.uprn, month);
  let saon = p.subBuilding ?? '';
  if (saon.startsWith('FLAT ') && r.chance(MESS.ppdSaonNumberOnly)) saon = saon.slice(5);
  if (saon.endsWith(' FLOOR FLAT') && pr.chance(ADDRESS_PATTERNS.ppdFloorVariant)) {
    const floor = saon.slice(0, -' FLOOR FLAT'.length);
    saon = pr.pick([`${floor} FLOOR`, `FLAT, ${floor} FLOOR`, `${FLOOR_ABBREV[floor] ?? floor} FLR FLAT`]);
  }
  let paon: string;
  if (p.subBuilding?.startsWith('FLAT ') && p.buildingName && !/^\d/.test(p.buildingName) && pr.chance(ADDRESS_PATTERNS.ppdUnitInPaon)) {
    paon = [`${p.subBuilding.slice(5)} ${p.buildingName}`, p.buildingNumber].filter(Boolean).join(', ');
    saon = '';
  } else if (p.buildingName && /^\d+[A-Z]$/.test(p.buildingName)) {
    paon = r.chance(MESS.ppdSuffixSpace) ? p.buildingName.replace(/(\d+)([A-Z])/, '$1 $2') : p.buildingName;
  } else if (p.buildingName && p.buildingNumber) {
    paon = r.chance(0.5) ? `${p.buildingName}, ${p.buildingNumber}` : p.buildingNumber;
  } else {
    paon = p.buildingName ?? p.buildingNumber ?? '';
  }
  // Slips that no matcher can fully undo: a flat sale keyed without its flat number, and a
  // house number keyed wrongly (digits swapped, or the next number along).
  if (saon && r.chance(MESS.ppdSaonMissing)) saon = '';
  if (/^\d+$/.test(paon) && r.chance(MESS.ppdNumberSlip)) {
    const swapped = paon.split('').reverse().join('');
    paon = swapped !== paon && !swapped.startsWith('0') ? swapped : String(Number(paon) + 2);
  }
  let stem = p.streetStem;
  let type = p.streetType[0];
  if (r.chance(MESS.ppdStreetTypo)) stem = typo(r, stem);
  if (type && r.chance(MESS.ppdStreetAbbrev)) type = STREET_TYPES.find(([t]) => t === type)?.[1] ?? type;
  if (!type && stem.includes(' ') && pr.chance(ADDRESS_PATTERNS.ppdJoinedWelshStreet)) stem = stem.replaceAll(' ', '');
  const street = type ? `${stem} ${type}` : stem;
  const locality = p.locality && !r.chance(MESS.ppdMissingLocality) ? p.locality : '';
  let postcode = p.oldPostcode !== undefined && p.postcodeChangedAt !== undefined && month < p.postcodeChangedAt ? p.oldPostcode : p.postcode;
  if (r.chance(MESS.ppdPostcodeTypo)) postcode = postcodeTypo(r, postcode);
  return { paon, saon, street, locality, postcode };
}

/** One bulk Price Paid record: 16 fields, every one quoted, `{GUID}`, `YYYY-MM-DD 00:00`. */
export function ppdRow(id: string, price: number | string, s: Sale, p: Property, a: PpdAddress, status: 'A' | 'C' | 'D'): string {
  return [
    `{${id}}`, String(price), `${isoDay(s.day)} 00:00`, a.postcode, p.type, s.newBuild ? 'Y' : 'N', p.tenure,
    a.paon, a.saon, a.street, a.locality, p.town.postTown, p.town.ppdDistrict, p.town.ppdCounty, s.category, status,
  ].map(csvAll).join(',') + '\n';
}

export function saleMonth(s: Sale): MonthIdx {
  return monthOfDay(s.day);
}
