import { BLM_SAMPLE_FIELDS } from '../../schemas/sources/listings.ts';
import { csvRow, OutFile } from './out.ts';
import type { Planter } from './planted.ts';
import { hashKey, rng } from './prng.ts';
import { isoDay, type DayIdx } from './time.ts';
import type { Property } from './units.ts';

/**
 * For-sale and to-let listings of the synthetic region, as each town's agent branch sends
 * them to Rightmove: a BLM bulk file (`^` and `~`, the usual separators; prices with
 * thousands separators; each record ending in a separator before its `~`) and, a day later,
 * Real Time Datafeed requests that withdraw some listings and reprice others. Asking prices
 * sit near the property's true value, a tenth of them planted well under it and some well
 * over: `truth/listings-market.csv` records each listing's true value, final price, whether it
 * is truly underpriced (10% or more under) and whether it is still live.
 */
export const BLM_FIELDS = [...BLM_SAMPLE_FIELDS, 'PRICE_QUALIFIER', 'TENURE_TYPE_ID', 'LATITUDE', 'LONGITUDE'] as const;
export const LISTINGS_TRUTH_HEADER = ['listing_id', 'uprn', 'channel', 'true_value', 'price', 'discount_pct', 'underpriced', 'live'];
/** A discount from the true value at or beyond which a sale listing counts as truly underpriced. */
export const UNDERPRICED_PCT = 10;

const SALE_RATE = 0.02;
const LET_RATE = 0.08;

/**
 * The fields of a home a listing is written with: listings are held until the end of the
 * walk (one BLM file per branch), so each keeps this much of its home rather than the whole
 * Property (about 3.6% of homes are listed: a million at 30 million addresses).
 */
type ListedHome = Pick<Property, 'uprn' | 'postcode' | 'lat' | 'lng' | 'subBuilding' | 'buildingName' | 'buildingNumber' | 'street'
  | 'locality' | 'type' | 'builtForm' | 'floorLevel' | 'bedrooms' | 'tenure'> & { town: Pick<Property['town'], 'postTown'> };

function listedHome(p: Property): ListedHome {
  return {
    uprn: p.uprn, postcode: p.postcode, lat: p.lat, lng: p.lng, subBuilding: p.subBuilding, buildingName: p.buildingName,
    buildingNumber: p.buildingNumber, street: p.street, locality: p.locality, type: p.type, builtForm: p.builtForm,
    floorLevel: p.floorLevel, bedrooms: p.bedrooms, tenure: p.tenure, town: p.town,
  };
}

interface Listing {
  branch: number;
  ref: string;
  p: ListedHome;
  channel: 'sale' | 'rent';
  trueValue: number;
  price: number; // sale: asking; rent: per calendar month
  weekly: boolean;
  status: number; // BLM STATUS_ID
  created: DayIdx;
  updated: DayIdx;
  withCoords: boolean;
  tenureCoded: boolean;
  removed: boolean;
  repriced: number | undefined;
}

/**
 * A listing held until the end of the walk as one JSON string (its fields in `PACKED` order,
 * undefined as null): an object with its home's fields took several times the bytes, and about
 * a million listings are held at 30M addresses.
 */
const PACKED = ['branch', 'ref', 'channel', 'trueValue', 'price', 'weekly', 'status', 'created', 'updated', 'withCoords', 'tenureCoded', 'removed', 'repriced'] as const;
const PACKED_HOME = ['uprn', 'postcode', 'lat', 'lng', 'subBuilding', 'buildingName', 'buildingNumber', 'street', 'locality', 'type', 'builtForm', 'floorLevel', 'bedrooms', 'tenure'] as const;

function packListing(l: Listing): string {
  return JSON.stringify([...PACKED.map((k) => l[k] ?? null), ...PACKED_HOME.map((k) => l.p[k] ?? null), l.p.town.postTown]);
}

function unpackListing(s: string): Listing {
  const v = (JSON.parse(s) as unknown[]).map((x) => (x === null ? undefined : x));
  const home = Object.fromEntries(PACKED_HOME.map((k, i) => [k, v[PACKED.length + i]])) as Omit<ListedHome, 'town'>;
  const l = Object.fromEntries(PACKED.map((k, i) => [k, v[i]])) as Omit<Listing, 'p'>;
  return { ...l, p: { ...home, town: { postTown: v[PACKED.length + PACKED_HOME.length] as string } } };
}

export class ListingsWriter {
  /** Each branch's listings (packed), in the order they came. */
  private readonly byBranch = new Map<number, string[]>();

  constructor(private readonly seed: number, private readonly today: DayIdx) {}

  /** Draws whether a home is on the market (for sale, or to let when privately rented) and at what price. */
  add(p: Property, trueValue: number, rent: { privateRented: boolean; hmo: boolean; rentToday: number }): void {
    if (p.phantom) return;
    const r = rng(this.seed, 'listing', p.uprn);
    const branch = 1000 + (hashKey(['branch', p.town.key]) % 9000);
    const common = {
      branch, p: listedHome(p), created: this.today - r.int(1, 120), withCoords: r.chance(0.7), tenureCoded: r.chance(0.8),
      removed: false, repriced: undefined,
    };
    let l: Listing | undefined;
    if (r.chance(SALE_RATE)) {
      const kind = r.next();
      const factor = kind < 0.1 ? r.uniform(0.72, 0.9) : kind < 0.16 ? r.uniform(1.15, 1.3) : Math.exp(r.gauss(0.03, 0.05));
      const statusDraw = r.next();
      l = { ...common, ref: `${branch}_S${p.uprn}`, channel: 'sale', trueValue, price: asking(r, trueValue * factor),
        weekly: false, status: statusDraw < 0.85 ? 0 : statusDraw < 0.95 ? 1 : 3, updated: 0 };
    } else if (rent.privateRented && !rent.hmo && r.chance(LET_RATE)) {
      const pcm = Math.round((rent.rentToday * Math.exp(r.gauss(0.02, 0.05))) / 25) * 25;
      const weekly = r.chance(0.3);
      l = { ...common, ref: `${branch}_L${p.uprn}`, channel: 'rent', trueValue: rent.rentToday,
        price: weekly ? Math.round((pcm * 12) / 52) : pcm, weekly, status: r.chance(0.9) ? 0 : 5, updated: 0 };
    }
    if (!l) return;
    l.updated = Math.min(this.today - 1, l.created + r.int(0, 14));
    const after = r.next();
    if (after < 0.04) l.removed = true;
    else if (after < 0.09 && l.channel === 'sale') l.repriced = asking(r, l.price * 0.95);
    let held = this.byBranch.get(l.branch);
    if (!held) this.byBranch.set(l.branch, (held = []));
    held.push(packListing(l));
  }

  /** Writes the BLM files, the RTDF requests and the truth; returns the closed files. */
  async write(out: string, planter: Planter, truth: OutFile): Promise<OutFile[]> {
    const files: OutFile[] = [];
    const branches = [...this.byBranch.keys()].sort((a, b) => a - b);
    const requests: unknown[] = [];
    for (const branch of branches) {
      const rel = `listings/blm/${branch}_${isoDay(this.today - 1).replaceAll('-', '')}.blm`;
      const f = new OutFile(`${out}/${rel}`, rel);
      f.raw(`#HEADER#\nVERSION : 3\nEOF : '^'\nEOR : '~'\nProperty Count : ${this.byBranch.get(branch)!.length}\nGenerated Date : ${isoDay(this.today - 1)} 23:00:00\n\n`);
      f.raw(`#DEFINITION#\n${BLM_FIELDS.join('^')}^~\n\n#DATA#\n`);
      for (const packed of this.byBranch.get(branch)!) {
        const l = unpackListing(packed);
        f.row(blmRecord(l));
        if (l.removed) requests.push(removeRequest(l, this.today));
        else if (l.repriced !== undefined) requests.push(sendRequest({ ...l, price: l.repriced }, this.today));
        const price = l.repriced ?? l.price;
        const monthly = l.channel === 'rent' && l.weekly ? (price * 52) / 12 : price;
        const discount = ((l.trueValue - monthly) / l.trueValue) * 100;
        truth.row(csvRow([`${l.branch}:${l.ref}`, l.p.uprn, l.channel, l.trueValue, Math.round(monthly * 100) / 100, discount.toFixed(2),
          l.channel === 'sale' && discount >= UNDERPRICED_PCT ? 1 : 0, l.removed ? 0 : 1]));
      }
      if (files.length === 0) {
        const l = unpackListing(this.byBranch.get(branch)![0]!);
        planter.plant(f, 'invalid:price', blmRecord({ ...l, ref: `${branch}_PLANTED1`, price: -500_000, channel: 'sale' }));
        planter.plant(f, 'rent_per_person', blmRecord({ ...l, ref: `${branch}_PLANTED2`, channel: 'rent', weekly: false, price: 150 }, { LET_RENT_FREQUENCY: 5 }));
      }
      f.raw('#END#\n');
      await f.close();
      files.push(f);
    }
    const rel = `listings/rtdf/${isoDay(this.today).replaceAll('-', '')}-requests.json`;
    const f = new OutFile(`${out}/${rel}`, rel);
    requests.push({ network: { network_id: 1 }, branch: { branch_id: branches[0] ?? 1000, channel: 1 } });
    f.raw('[\n' + requests.map((q) => JSON.stringify(q)).join(',\n') + '\n]\n');
    f.rows = requests.length;
    planter.expected[rel] = { not_a_property_request: 1 };
    await f.close();
    files.push(f);
    return files;
  }
}

/** Agents' asking prices: to £5,000 under £1m (a third of them £50 under, `…,950`), £25,000 above. */
function asking(r: ReturnType<typeof rng>, v: number): number {
  if (v >= 1_000_000) return Math.round(v / 25_000) * 25_000;
  const p = Math.max(5_000, Math.round(v / 5_000) * 5_000);
  return r.chance(0.33) ? p - 50 : p;
}

const title = (s: string | undefined) => s?.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
const thousands = (x: number) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const dateTime = (d: DayIdx, hour: number) => `${isoDay(d)} ${String(hour).padStart(2, '0')}:15:00`;
const rtdfDate = (d: DayIdx) => { const [y, m, dd] = isoDay(d).split('-'); return `${dd}-${m}-${y} 09:00:00`; };

function typeCode(p: ListedHome): number {
  if (p.type === 'F') return p.floorLevel === 0 ? 7 : 8;
  if (p.type === 'D') return 4;
  if (p.type === 'S') return 3;
  return p.builtForm === 'End-Terrace' ? 2 : 1;
}

function addressParts(p: ListedHome): { a1: string; a2: string; a3: string; town: string; display: string } {
  const a1 = [p.subBuilding, p.buildingName ?? p.buildingNumber].filter(Boolean).map(title).join(', ');
  return { a1, a2: title(p.street)!, a3: title(p.locality) ?? '', town: title(p.town.postTown)!, display: `${title(p.street)}, ${title(p.town.postTown)}` };
}

function blmRecord(l: Listing, over: Record<string, string | number> = {}): string {
  const { p } = l;
  const a = addressParts(p);
  const [out, inw] = p.postcode.split(' ');
  const v: Record<string, string | number> = {
    AGENT_REF: l.ref, ADDRESS_1: `${a.a1} `, ADDRESS_2: `${a.a2} `, ADDRESS_3: a.a3, TOWN: a.town, POSTCODE1: out!, POSTCODE2: inw!,
    FEATURE1: `${p.bedrooms} bedrooms`, FEATURE2: l.channel === 'sale' ? 'Close to amenities' : 'Available now',
    FEATURE3: l.tenureCoded || l.channel === 'rent' ? '' : `Tenure: ${p.tenure === 'F' ? 'freehold' : 'leasehold'}`,
    SUMMARY: `A ${p.bedrooms} bedroom home on ${a.a2}.`, DESCRIPTION: `<p>A ${p.bedrooms} bedroom home on ${a.a2}, ${a.town}.</p><br/>&quot;Viewing recommended&quot;`,
    BRANCH_ID: l.branch, STATUS_ID: l.status, BEDROOMS: p.bedrooms, PRICE: thousands(l.price), NEW_HOME_FLAG: 'N', PROP_SUB_ID: typeCode(p),
    CREATE_DATE: dateTime(l.created, 9), UPDATE_DATE: dateTime(l.updated, 16), DISPLAY_ADDRESS: a.display, PUBLISHED_FLAG: 1,
    LET_RENT_FREQUENCY: l.channel === 'rent' ? (l.weekly ? 0 : 1) : '', TRANS_TYPE_ID: l.channel === 'sale' ? 1 : 2,
    PRICE_QUALIFIER: l.channel === 'sale' && l.price % 5000 !== 0 ? 10 : 0,
    TENURE_TYPE_ID: l.tenureCoded && l.channel === 'sale' ? (p.tenure === 'F' ? 1 : 2) : '',
    LATITUDE: l.withCoords ? p.lat : '', LONGITUDE: l.withCoords ? p.lng : '',
  };
  const w = { ...v, ...over };
  return BLM_FIELDS.map((h) => String(w[h] ?? '')).join('^') + '^~\n';
}

function sendRequest(l: Listing, today: DayIdx): unknown {
  const { p } = l;
  const a = addressParts(p);
  const [out, inw] = p.postcode.split(' ');
  return {
    network: { network_id: 1 }, branch: { branch_id: l.branch, channel: l.channel === 'sale' ? 1 : 2, overseas: false },
    property: {
      agent_ref: l.ref, published: true, property_type: typeCode(p), status: l.status + 1, new_home: false,
      create_date: rtdfDate(l.created), update_date: rtdfDate(today),
      address: { house_name_number: a.a1, address_2: a.a2, address_3: a.a3 || undefined, town: a.town, postcode_1: out, postcode_2: inw,
        display_address: a.display, ...(l.withCoords ? { latitude: Number(p.lat), longitude: Number(p.lng) } : {}) },
      price_information: { price: l.price, price_qualifier: 10, ...(l.tenureCoded ? { tenure_type: p.tenure === 'F' ? 1 : 2 } : {}) },
      details: { summary: `A ${p.bedrooms} bedroom home on ${a.a2}.`, description: 'Price reduced.', features: [], bedrooms: p.bedrooms },
    },
  };
}

function removeRequest(l: Listing, today: DayIdx): unknown {
  return {
    network: { network_id: 1 }, branch: { branch_id: l.branch, channel: l.channel === 'sale' ? 1 : 2 },
    property: { agent_ref: l.ref, removal_reason: l.channel === 'sale' ? 2 : 9, transaction_date: rtdfDate(today) },
  };
}
