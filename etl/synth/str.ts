import { AIRBNB_LISTINGS_HEADER } from '../../schemas/sources/airbnb.ts';
import { AMENITIES, FIRST_NAMES, HOST_COMPANIES, REVIEW_DETAILS, REVIEW_OPENERS } from './names.ts';
import { STR } from './params.ts';
import { rng, type Rng } from './prng.ts';
import { csvRow } from './out.ts';
import { daysInMonth, firstDay, isoDay, monthNum, monthOfDay, monthYear, type DayIdx, type MonthIdx } from './time.ts';
import type { Property } from './units.ts';

/**
 * Short-term lets (Inside Airbnb). Each listing has a true nightly rate and occupancy by
 * month; nights are simulated day by day (blocked by the host, booked, or open), stays
 * leave a review half the time, and the scrape sees: a listed price that scatters around
 * the true rate (log SD 0.18), a calendar where only bookings already made show as
 * unavailable (mixed with host blocks), and Inside Airbnb's own occupancy estimate from
 * reviews. The truth keeps the real rate and booked nights for every month.
 */

/** Probability that an address is listed at all. */
export function listingProbability(p: Property): number {
  return p.town.strRate * (0.4 + 1.6 * p.district.spec.urban) * (p.type === 'F' ? 1.15 : 0.85);
}

export interface Host {
  id: string;
  name: string;
  since: DayIdx;
  pro: boolean;
  extraListings: number;
  superhost: boolean;
}

export interface Ids {
  listing: number;
  review: number;
  host: number;
}

export interface ListingTruthMonth {
  month: MonthIdx;
  adr: number;
  booked: number;
  blocked: number;
  available: number;
}

export interface Listing {
  id: string;
  uprn: number;
  roomType: string;
  bedrooms: number;
  active: boolean;
  adrMean: number; // true annual-mean nightly rate at scrape, GBP
  occupancy: number; // baseline occupancy (before seasonality)
  observedPrice: number | undefined;
  host: Host;
  row: Record<string, string>;
  calendar: string[];
  reviews: string[];
  months: ListingTruthMonth[];
}

export function adrSeason(p: Property, m: MonthIdx): number {
  const mo = monthNum(m);
  return STR.adrSeason[mo - 1]! * (p.town.key === 'edinburgh' && mo === 8 ? STR.festivalAugust : 1);
}

function occSeason(p: Property, m: MonthIdx): number {
  const mo = monthNum(m);
  return STR.occSeason[mo - 1]! * (p.town.key === 'edinburgh' && mo === 8 ? Math.sqrt(STR.festivalAugust) : 1);
}

/** `$1,234.00`: Inside Airbnb's display format (a dollar sign even for GBP). */
export function dollar(x: number): string {
  const [i, f] = x.toFixed(2).split('.') as [string, string];
  return `$${i.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${f}`;
}

export function newHost(r: Rng, ids: Ids, start: DayIdx, pro: boolean): Host {
  const since = start - r.int(0, 900);
  const n = ids.host++;
  const id = monthYear(monthOfDay(since)) >= 2021 ? String(400_000_000 + n * 17 + r.int(0, 16)) : String(100_000 + n * 53 + r.int(0, 52));
  return { id, name: pro ? r.pick(HOST_COMPANIES) : r.pick(FIRST_NAMES), since, pro, extraListings: pro ? r.int(0, 25) : r.chance(0.1) ? r.int(1, 3) : 0, superhost: r.chance(0.3) };
}

function listingId(r: Rng, ids: Ids, created: DayIdx): string {
  const n = BigInt(ids.listing++);
  if (monthYear(monthOfDay(created)) >= 2022) return String(1_000_000_000_000_000_000n + n * 1_000_000_000n + BigInt(r.int(0, 999_999_999)));
  return String(10_000n + n * 97n + BigInt(r.int(0, 96)));
}

function reviewId(r: Rng, ids: Ids, day: DayIdx): string {
  const n = BigInt(ids.review++);
  if (monthYear(monthOfDay(day)) >= 2021) return String(600_000_000_000_000_000n + n * 100_000n + BigInt(r.int(0, 99_999)));
  return String(1_000_000n + n * 13n + BigInt(r.int(0, 12)));
}

function comment(r: Rng): string {
  const parts = [`${r.pick(REVIEW_OPENERS)}${r.chance(0.5) ? '!' : '.'}`];
  const n = r.int(0, 3);
  for (let i = 0; i < n; i++) parts.push(r.pick(REVIEW_DETAILS));
  // A few reviews span lines, as in the real files (LF, CRLF, or Airbnb's <br/>).
  const sep = r.chance(0.06) ? r.pick(['\n', '\r\n', '<br/>']) : ' ';
  return parts.join(sep);
}

function score(r: Rng, base: number): string {
  return Math.min(5, Math.max(1, base + r.gauss(0, 0.08))).toFixed(2);
}

/**
 * One listing at property `p`, or undefined when the address is not listed. `hostFor` gives
 * the host: shared by the listings of one postcode unit when a management company runs them.
 */
export function listingFor(
  seed: number,
  p: Property,
  hostFor: (r: Rng, start: DayIdx) => Host,
  ids: Ids,
  scrape: DayIdx,
): Listing | undefined {
  const r = rng(seed, 'str', p.uprn);
  if (!r.chance(listingProbability(p))) return undefined;
  const roomType = p.bedrooms >= 2 || p.type !== 'F' ? r.weighted(STR.roomTypes) : 'Entire home/apt';
  const entire = roomType === 'Entire home/apt';
  const bedrooms = entire ? p.bedrooms : 1;
  const scrapeMonth = monthOfDay(scrape);
  const ageMonths = Math.min(STR.maxYearsActive * 12, Math.floor(-30 * Math.log(1 - r.next())) + 1);
  const startDay = firstDay(scrapeMonth - ageMonths) + r.int(0, 27);
  const active = !r.chance(STR.inactiveShare);
  const stopDay = active ? Infinity : scrape - r.int(30, Math.max(31, Math.min(540, scrape - startDay - 1)));
  const h = hostFor(r, startDay);
  const id = listingId(r, ids, startDay);

  const typeFactor = entire ? 1 + STR.adrPerExtraBedroom * (bedrooms - 1) : roomType === 'Hotel room' ? 1.1 : roomType === 'Shared room' ? 0.3 : STR.roomAdrFactor;
  const qStr = r.gauss(0, STR.adrQualitySd);
  const adrMean = p.town.adr1Bed * typeFactor * Math.exp(0.5 * p.unitPremium + 0.3 * (p.district.spec.ppsqm - 1) + qStr);
  const occBase = Math.min(0.92, Math.max(0.08, r.gauss(STR.occupancyMean, STR.occupancySd) + 0.05 * qStr));
  const blockRate = Math.min(0.5, Math.max(0, r.gauss(0.08, 0.08)));
  const minNights = r.weighted([[1, 0.3], [2, 0.35], [3, 0.18], [4, 0.07], [5, 0.04], [7, 0.04], [30, 0.02]]);
  const maxNights = r.pick([30, 60, 90, 365, 1125, 1125]);
  const los = Math.max(minNights, Math.round(2.8 * Math.exp(r.gauss(0, 0.35))));
  const adrAt = (m: MonthIdx) => adrMean * adrSeason(p, m) * Math.pow(1 + STR.adrGrowthPerYear, (m - scrapeMonth) / 12);

  // Day-by-day simulation from the listing's start to a year past the scrape.
  const endDay = scrape + 365;
  const months: ListingTruthMonth[] = [];
  const calendar: string[] = [];
  const reviews: { day: DayIdx }[] = [];
  let avail30 = 0, avail60 = 0, avail90 = 0, avail365 = 0, availEoy = 0;
  const eoy = firstDay((monthYear(scrapeMonth) + 1) * 12);
  for (let m = monthOfDay(startDay); firstDay(m) < endDay; m++) {
    const occ = Math.min(0.98, occBase * occSeason(p, m));
    let booked = 0, blocked = 0, open = 0;
    const dim = daysInMonth(m);
    for (let d = firstDay(m); d < firstDay(m) + dim; d++) {
      if (d < startDay || d >= endDay) continue;
      const live = d < stopDay;
      const isBlocked = !live || r.chance(blockRate);
      const isBooked = !isBlocked && r.chance(occ);
      if (live) {
        if (isBlocked) blocked++;
        else if (isBooked) booked++;
        else open++;
      }
      if (d >= scrape) {
        // Only bookings already made by the scrape show; later ones are still open.
        const visible = isBooked && r.chance(Math.exp(-(d - scrape) / 45));
        const available = !isBlocked && !visible;
        const k = d - scrape;
        if (available) {
          if (k < 30) avail30++;
          if (k < 60) avail60++;
          if (k < 90) avail90++;
          avail365++;
          if (d < eoy) availEoy++;
        }
        calendar.push(`${id},${isoDay(d)},${available ? 't' : 'f'},,,${minNights},${maxNights}\n`);
      }
    }
    if (firstDay(m) < scrape) {
      const stays = booked / los;
      const nStays = Math.floor(stays) + (r.chance(stays - Math.floor(stays)) ? 1 : 0);
      const nReviews = r.binomial(nStays, STR.reviewRate);
      for (let i = 0; i < nReviews; i++) {
        const day = Math.min(scrape - 1, firstDay(m) + r.int(0, dim - 1) + los);
        if (day >= startDay) reviews.push({ day });
      }
    }
    months.push({ month: m, adr: Math.round(adrAt(m) * 100) / 100, booked, blocked, available: booked + open });
  }
  reviews.sort((a, b) => a.day - b.day);
  const reviewRows = reviews.map(({ day }) =>
    csvRow([id, reviewId(r, ids, day), isoDay(day), String(r.int(100_000, 599_999_999)), r.pick(FIRST_NAMES), comment(r)]),
  );

  const observed = adrAt(scrapeMonth) * Math.exp(r.gauss(0, STR.observedPriceSd));
  const observedPrice = active && !r.chance(0.01) ? Math.max(10, Math.round(observed)) : undefined;
  const ltm = reviews.filter((x) => x.day >= scrape - 365).length;
  const l30 = reviews.filter((x) => x.day >= scrape - 30).length;
  const lastYear = monthYear(scrapeMonth) - 1;
  const ly = reviews.filter((x) => monthYear(monthOfDay(x.day)) === lastYear).length;
  const first = reviews[0]?.day;
  const last = reviews[reviews.length - 1]?.day;
  const occEst = Math.min(255, ltm * 2 * Math.max(3, minNights));
  const scoreBase = Math.min(4.98, Math.max(3.5, 4.75 + 0.5 * qStr + r.gauss(0, 0.1)));
  const lastScraped = active ? scrape : stopDay + r.int(0, 20);
  const baths = entire ? Math.max(1, Math.round(bedrooms / 2 + r.int(-1, 1) * 0.5) ) : 1;
  const bathsText = entire ? `${baths} bath${baths === 1 ? '' : 's'}` : r.pick(['1 shared bath', '1 private bath']);
  const propType = entire ? (p.type === 'F' ? r.pick(['Entire rental unit', 'Entire condo', 'Entire serviced apartment']) : r.pick(['Entire home', 'Entire townhouse'])) : `${roomType === 'Hotel room' ? 'Room in hotel' : roomType === 'Shared room' ? 'Shared room in home' : 'Private room in home'}`;
  const amen = AMENITIES.filter(() => r.chance(0.45));
  const ward = p.district.spec.locality ? titleCase(p.district.spec.locality) : `${titleCase(p.town.postTown)} Central`;
  const v = (x: number | string | undefined) => (x === undefined ? '' : String(x));
  const row: Record<string, string> = {
    id,
    listing_url: `https://www.airbnb.com/rooms/${id}`,
    scrape_id: `${isoDay(scrape).replace(/-/g, '')}165908`,
    last_scraped: isoDay(lastScraped),
    source: active ? 'city scrape' : 'previous scrape',
    name: `${entire ? 'Bright' : 'Cosy'} ${propType.toLowerCase()} in ${ward}`,
    description: r.chance(0.3) ? `A lovely place to stay.\nClose to ${ward}, shops and transport.` : `Comfortable stay in ${ward}, close to shops and transport.`,
    neighborhood_overview: r.chance(0.4) ? `${ward} is friendly and lively.<br /><br />Plenty of cafes.` : '',
    picture_url: `https://a0.muscache.com/pictures/${r.hex(8)}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}.jpg`,
    host_id: h.id,
    host_url: `https://www.airbnb.com/users/show/${h.id}`,
    host_name: h.name,
    host_since: isoDay(h.since),
    host_location: `${titleCase(p.town.postTown)}, United Kingdom`,
    host_about: '',
    host_response_time: r.weighted([['within an hour', 0.6], ['within a few hours', 0.12], ['within a day', 0.07], ['N/A', 0.21]]),
    host_response_rate: r.chance(0.8) ? `${r.int(80, 100)}%` : 'N/A',
    host_acceptance_rate: r.chance(0.85) ? `${r.int(60, 100)}%` : 'N/A',
    host_is_superhost: h.superhost ? 't' : 'f',
    host_thumbnail_url: `https://a0.muscache.com/im/pictures/user/${h.id}.jpg?aki_policy=profile_small`,
    host_picture_url: `https://a0.muscache.com/im/pictures/user/${h.id}.jpg?aki_policy=profile_x_medium`,
    host_neighbourhood: '',
    host_listings_count: '',
    host_total_listings_count: '',
    host_verifications: "['email', 'phone']",
    host_has_profile_pic: 't',
    host_identity_verified: r.chance(0.9) ? 't' : 'f',
    neighbourhood: r.chance(0.5) ? 'Neighborhood highlights' : '',
    neighbourhood_cleansed: ward,
    neighbourhood_group_cleansed: '',
    latitude: String(Number(Number(p.lat).toFixed(5))),
    longitude: String(Number(Number(p.lng).toFixed(5))),
    property_type: propType,
    room_type: roomType,
    accommodates: v(entire ? Math.max(1, bedrooms * 2 + r.int(-1, 1)) : r.int(1, 2)),
    bathrooms: baths.toFixed(1),
    bathrooms_text: bathsText,
    bedrooms: v(bedrooms),
    beds: v(entire ? bedrooms + r.int(0, 1) : 1),
    amenities: JSON.stringify(amen),
    price: observedPrice === undefined ? '' : dollar(observedPrice),
    minimum_nights: v(minNights),
    maximum_nights: v(maxNights),
    minimum_minimum_nights: v(minNights),
    maximum_minimum_nights: v(minNights),
    minimum_maximum_nights: v(maxNights),
    maximum_maximum_nights: v(maxNights),
    minimum_nights_avg_ntm: minNights.toFixed(1),
    maximum_nights_avg_ntm: maxNights.toFixed(1),
    calendar_updated: '',
    has_availability: active ? 't' : '',
    availability_30: v(avail30),
    availability_60: v(avail60),
    availability_90: v(avail90),
    availability_365: v(avail365),
    calendar_last_scraped: isoDay(lastScraped),
    number_of_reviews: v(reviews.length),
    number_of_reviews_ltm: v(ltm),
    number_of_reviews_l30d: v(l30),
    availability_eoy: v(availEoy),
    number_of_reviews_ly: v(ly),
    estimated_occupancy_l365d: v(occEst),
    estimated_revenue_l365d: observedPrice === undefined ? '' : v(occEst * observedPrice),
    first_review: first === undefined ? '' : isoDay(first),
    last_review: last === undefined ? '' : isoDay(last),
    review_scores_rating: first === undefined ? '' : score(r, scoreBase),
    review_scores_accuracy: first === undefined ? '' : score(r, scoreBase + 0.05),
    review_scores_cleanliness: first === undefined ? '' : score(r, scoreBase),
    review_scores_checkin: first === undefined ? '' : score(r, scoreBase + 0.1),
    review_scores_communication: first === undefined ? '' : score(r, scoreBase + 0.1),
    review_scores_location: first === undefined ? '' : score(r, scoreBase + 0.05),
    review_scores_value: first === undefined ? '' : score(r, scoreBase - 0.05),
    license: '',
    instant_bookable: r.chance(0.4) ? 't' : 'f',
    calculated_host_listings_count: '',
    calculated_host_listings_count_entire_homes: '',
    calculated_host_listings_count_private_rooms: '',
    calculated_host_listings_count_shared_rooms: '',
    reviews_per_month: first === undefined ? '' : String(Math.round((reviews.length / Math.max(1, (scrape - first) / 30.44)) * 100) / 100),
  };
  return {
    id, uprn: p.uprn, roomType, bedrooms, active, adrMean: Math.round(adrMean * 100) / 100, occupancy: occBase,
    observedPrice, host: h, row, calendar, reviews: reviewRows, months,
  };
}

/** Fills the host counts (they need every listing of the host, all within one unit) and renders the rows. */
export function listingRows(listings: Listing[]): string[] {
  const byHost = new Map<string, Listing[]>();
  for (const l of listings) byHost.set(l.host.id, [...(byHost.get(l.host.id) ?? []), l]);
  return listings.map((l) => {
    const mine = byHost.get(l.host.id)!;
    const n = (t: string) => String(mine.filter((x) => x.roomType === t).length);
    l.row.calculated_host_listings_count = String(mine.length);
    l.row.calculated_host_listings_count_entire_homes = n('Entire home/apt');
    l.row.calculated_host_listings_count_private_rooms = n('Private room');
    l.row.calculated_host_listings_count_shared_rooms = n('Shared room');
    l.row.host_listings_count = String(mine.length + l.host.extraListings);
    l.row.host_total_listings_count = String(mine.length + l.host.extraListings + (l.host.pro ? 2 : 0));
    return csvRow(AIRBNB_LISTINGS_HEADER.map((h) => l.row[h]));
  });
}

function titleCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());
}
