import { normaliseText } from '../../../../schemas/address-normalise.ts';

/**
 * `docWords` (schemas/address-normalise.ts) with each comma-separated part's normal form
 * remembered. `normaliseText` reads each part on its own and joins the parts' words, and the
 * parts of addresses (a street, a town, a postcode) recur across many addresses: at 300,000
 * addresses there are 1.3 million parts but 133,000 distinct ones. The words are docWords'.
 */
export class DocWordsCache {
  private readonly parts = new Map<string, string>();

  /**
   * `maxParts` bounds the memory: past it the cache starts over (the recurring parts, towns
   * and streets, are back within a few postcodes). Distinct parts grow with the region: on
   * 1M synthetic addresses the unbounded cache took about 170 MB, the largest holding of the
   * search index's writer once its sections spilled (peak RSS 401 MB, 231 MB with a bound).
   */
  constructor(private readonly maxParts = 250_000) {}

  private normal(part: string): string {
    let t = this.parts.get(part);
    if (t === undefined) {
      if (this.parts.size >= this.maxParts) this.parts.clear();
      this.parts.set(part, (t = normaliseText(part)));
    }
    return t;
  }

  words(address: string, postcode: string): string[] {
    let t = '';
    for (const part of address.split(',')) {
      const w = this.normal(part);
      if (w) t = t ? `${t} ${w}` : w;
    }
    // As docWords: a trailing copy of the postcode is not an address word.
    const pc = this.normal(postcode);
    if (pc && t.endsWith(pc)) t = t.slice(0, -pc.length);
    return t.split(' ').filter(Boolean);
  }

  /** The address's words, then each alias word it does not have, in the alias's order. */
  withAliases(r: { address: string; postcode: string; aliases?: string | null }): string[] {
    const own = this.words(r.address, r.postcode);
    if (!r.aliases) return own;
    const seen = new Set(own);
    for (const alias of r.aliases.split('|')) {
      for (const w of this.words(alias, r.postcode)) {
        if (!seen.has(w)) {
          seen.add(w);
          own.push(w);
        }
      }
    }
    return own;
  }
}
