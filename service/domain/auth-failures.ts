/**
 * Failed authentications per client address, in a sliding window: after `limit` failures
 * within `windowMs` an address is refused without its key being looked at, until the oldest
 * of those failures leaves the window. Refusals are not failures (the key was never checked),
 * so an address gets at most `limit` key checks that fail in any window, however fast it sends.
 *
 * Memory is bounded whatever the number of addresses: at most `capacity` addresses are kept,
 * least recently failed evicted first (a Map keeps insertion order; a failure moves its address
 * to the end), each with at most `limit` times. Pure: the caller hands in the time.
 */
export interface AuthFailurePolicy {
  /** Failures allowed per address in the window; 0 turns the throttle off. */
  limit: number;
  windowMs: number;
  /** Most addresses tracked at once. */
  capacity: number;
}

export class AuthFailureTable {
  /** Address → its last failure times, ascending, at most `limit`. */
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly policy: AuthFailurePolicy) {}

  get size(): number {
    return this.failures.size;
  }

  /** Milliseconds until `address` may try a key again; 0 when it may now. */
  retryAfterMs(address: string, now: number): number {
    const { limit, windowMs } = this.policy;
    const times = this.failures.get(address);
    if (limit === 0 || !times || times.length < limit) return 0;
    return Math.max(0, times[0]! + windowMs - now);
  }

  /** Records one failed authentication from `address` at `now`. */
  fail(address: string, now: number): void {
    const { limit, windowMs, capacity } = this.policy;
    if (limit === 0) return;
    const times = this.failures.get(address) ?? [];
    this.failures.delete(address);
    times.push(now);
    // Only the last `limit` failures decide; older ones, and any outside the window, go.
    let drop = Math.max(0, times.length - limit);
    while (drop < times.length && times[drop]! <= now - windowMs) drop++;
    times.splice(0, drop);
    this.failures.set(address, times);
    if (this.failures.size > capacity) this.failures.delete(this.failures.keys().next().value!);
  }
}

/**
 * The throttled unit for an address: an IPv4 address itself (also written IPv4-mapped,
 * `::ffff:a.b.c.d`), an IPv6 address's /64 (one subscriber's usual allocation, so an attacker
 * cannot step through the 2^64 addresses of its own network).
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
