import type { DuckDBConnection } from '@duckdb/node-api';
import { ABBREVIATIONS } from '../../schemas/address-normalise.ts';
import { similarity, trigrams } from '../../service/search/trigram.ts';
import type { SearchIndex } from '../../service/search/engine.ts';
import { rng as seededRng } from '../../etl/synth/prng.ts';

/** One query as a user would type it and the UPRN it should find. */
export interface RelevanceQuery {
  kind: string;
  q: string;
  uprn: number;
}

interface Truth {
  uprn: number;
  address: string;
  sub_building: string | null;
  building_name: string | null;
  building_number: string | null;
  street_name: string;
  locality: string | null;
  town_name: string | null;
  postcode: string;
}

/** Seeded uniform [0, 1): the synthetic generator's PRNG, so runs are repeatable. */
function rng(seed: number): () => number {
  const r = seededRng(seed, 'relevance-set');
  return () => r.next();
}

const SHORT: Record<string, string> = Object.fromEntries(
  Object.entries(ABBREVIATIONS).filter(([k]) => ['RD', 'AVE', 'CL', 'DR', 'GDNS', 'GRN', 'GR', 'LN', 'PL', 'SQ', 'TER', 'CT', 'PK', 'FLT', 'CRES', 'HSE', 'MWS', 'WY', 'HL'].includes(k)).map(([k, v]) => [v, k]),
);
SHORT.STREET = 'ST';

const lc = (s: string) => s.toLowerCase();
const abbreviate = (s: string) => s.split(' ').map((w) => SHORT[w] ?? w).join(' ');

function typo(word: string, r: () => number): string {
  if (word.length < 5) return word;
  const i = 1 + Math.floor(r() * (word.length - 2));
  const kind = Math.floor(r() * 3);
  if (kind === 0) return word.slice(0, i) + word.slice(i + 1); // deletion
  if (kind === 1) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2); // transposition
  return word.slice(0, i) + 'AEIOUNRST'[Math.floor(r() * 9)] + word.slice(i + 1); // substitution
}

/**
 * Queries as users type them, from the region's ground-truth addresses (AddressBase
 * structured parts): full with abbreviations, missing postcode, a typo in the street,
 * number + postcode only, typeahead cut mid-word, shuffled word order, flat numbers.
 * Unit-less queries are only made for addresses that are not flats, so each has one answer.
 */
export function relevanceQueries(truth: Truth[], count: number, seed = 7): RelevanceQuery[] {
  const r = rng(seed);
  const out: RelevanceQuery[] = [];
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  while (out.length < count) {
    const t = pick(truth);
    const unit = t.sub_building ?? '';
    const head = [unit, t.building_name ?? '', t.building_number ?? ''].filter(Boolean).join(' ');
    const street = t.street_name;
    const town = t.locality && r() < 0.5 ? t.locality : (t.town_name ?? '');
    const kind = pick(['abbrev', 'no_postcode', 'typo', 'postcode_only', 'typeahead', 'word_order', 'flat']);
    let q: string;
    switch (kind) {
      case 'abbrev': q = `${abbreviate(`${head} ${street}`)}, ${town} ${t.postcode}`; break;
      case 'no_postcode': q = `${head} ${street} ${town}`; break;
      case 'typo': {
        const words = street.split(' ');
        const i = words.reduce((best, w, j) => (w.length > words[best]!.length ? j : best), 0);
        words[i] = typo(words[i]!, r);
        q = `${head} ${words.join(' ')} ${r() < 0.5 ? t.postcode.split(' ')[0] : town}`;
        break;
      }
      case 'postcode_only': q = `${t.building_number ? `${unit} ${t.building_number}` : head} ${r() < 0.5 ? t.postcode : t.postcode.replace(' ', '')}`; break;
      case 'typeahead': {
        const full = `${head} ${street} ${town}`.replace(/\s+/g, ' ').trim();
        const cut = full.indexOf(street) + Math.min(street.length, 3 + Math.floor(r() * (street.length - 2)));
        q = full.slice(0, Math.max(cut, full.indexOf(street) + 3));
        break;
      }
      case 'word_order': q = `${street} ${t.building_number ?? t.building_name ?? ''} ${unit} ${town}`; break;
      default: q = unit ? `${abbreviate(unit)} ${t.building_number ?? t.building_name ?? ''} ${abbreviate(street)} ${t.postcode.split(' ')[0]}` : `${head} ${street} ${t.postcode.split(' ')[0]}`;
    }
    out.push({ kind, q: lc(q.replace(/\s+/g, ' ').trim()), uprn: t.uprn });
  }
  return out;
}

/** Ground truth: every address with its structured parts. */
export async function loadTruth(conn: DuckDBConnection): Promise<Truth[]> {
  const rows = (await conn.runAndReadAll(
    `SELECT uprn, address, sub_building, building_name, building_number, street_name, locality, town_name, postcode
     FROM addresses WHERE street_name IS NOT NULL AND postcode IS NOT NULL AND lat IS NOT NULL ORDER BY uprn`,
  )).getRowObjectsJson();
  return rows.map((r) => ({ ...(r as unknown as Truth), uprn: Number(r.uprn) }));
}

export interface Accuracy {
  queries: number;
  top1: number;
  top5: number;
  byKind: Record<string, { queries: number; top1: number; top5: number }>;
}

/** Top-1 and top-5 accuracy of a ranking function over the set. */
export function accuracy(set: RelevanceQuery[], rank: (q: string) => number[]): Accuracy {
  const byKind: Accuracy['byKind'] = {};
  let top1 = 0;
  let top5 = 0;
  for (const { kind, q, uprn } of set) {
    const got = rank(q);
    const k = (byKind[kind] ??= { queries: 0, top1: 0, top5: 0 });
    k.queries++;
    if (got[0] === uprn) (top1++, k.top1++);
    if (got.slice(0, 5).includes(uprn)) (top5++, k.top5++);
  }
  const share = (x: number, n: number) => Math.round((x / n) * 10_000) / 10_000;
  for (const k of Object.values(byKind)) [k.top1, k.top5] = [share(k.top1, k.queries), share(k.top5, k.queries)];
  return { queries: set.length, top1: share(top1, set.length), top5: share(top5, set.length), byKind };
}

export const indexRanker = (index: SearchIndex) => (q: string) => index.search(q, 5).map((m) => m.uprn);

/** Plain pg_trgm similarity of the lower-cased query and address, by brute force. */
export function plainTrigramRanker(truth: Truth[]): (q: string) => number[] {
  const docs = truth.map((t) => ({ uprn: t.uprn, grams: trigrams(t.address) }));
  return (q) => {
    const qt = trigrams(q);
    return docs
      .map((d) => ({ uprn: d.uprn, s: similarity(qt, d.grams) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 5)
      .map((d) => d.uprn);
  };
}
