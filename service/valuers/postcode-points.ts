import { partitionPoint } from '../../schemas/sorted-search.ts';
import type { BuildStore } from '../store/store.ts';

const WIDTH = 8; // the longest canonical postcode, "EC1A 1BB"

/**
 * The build's postcodes and positions in a compact sorted table (8 ASCII bytes per postcode,
 * two doubles): a binary search instead of a SQL round trip; about 24 bytes per postcode
 * (≈ 60 MB for the 2.6 million in the national directory).
 */
export class PostcodePoints {
  constructor(
    private readonly keys: Buffer,
    private readonly lat: Float64Array,
    private readonly lng: Float64Array,
  ) {}

  static fromSorted(postcodes: readonly string[], lat: ArrayLike<number>, lng: ArrayLike<number>): PostcodePoints {
    const keys = Buffer.alloc(postcodes.length * WIDTH, 0x20);
    postcodes.forEach((p, i) => keys.write(p, i * WIDTH, WIDTH, 'latin1'));
    return new PostcodePoints(keys, Float64Array.from(lat), Float64Array.from(lng));
  }

  /** Position of a canonical postcode (`BS1 4AB`), or undefined. */
  get(postcode: string): { lat: number; lng: number } | undefined {
    if (postcode.length > WIDTH) return undefined;
    const key = Buffer.alloc(WIDTH, 0x20);
    key.write(postcode, 0, WIDTH, 'latin1');
    const lo = partitionPoint(this.lat.length, (mid) => key.compare(this.keys, mid * WIDTH, (mid + 1) * WIDTH, 0, WIDTH) > 0);
    if (lo >= this.lat.length || key.compare(this.keys, lo * WIDTH, (lo + 1) * WIDTH, 0, WIDTH) !== 0) return undefined;
    return { lat: this.lat[lo]!, lng: this.lng[lo]! };
  }
}

/** Every postcode's point in the build, sorted for the binary search. */
export async function loadPostcodePoints(store: BuildStore): Promise<PostcodePoints> {
  const c = await store.columns('postcode_points_all');
  // Sorted again in JavaScript by the padded ASCII the lookup compares (SQL collation is not
  // guaranteed to be that byte order); string comparison of ASCII is byte order.
  const pcs = c.postcode.map((p) => p.padEnd(WIDTH));
  const order = pcs.map((_, i) => i).sort((a, b) => (pcs[a]! < pcs[b]! ? -1 : pcs[a]! > pcs[b]! ? 1 : 0));
  return PostcodePoints.fromSorted(order.map((i) => pcs[i]!), order.map((i) => c.lat[i]!), order.map((i) => c.lng[i]!));
}
