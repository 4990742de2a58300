/**
 * The server's garbage-collection pauses over a span, from its own Prometheus `/metrics`
 * (prom-client's `nodejs_gc_duration_seconds` histogram, by kind): read before and after a
 * run, the difference is what the run's requests waited behind. A pause stops the event loop,
 * so a long one lands in the tail latency of every endpoint at once.
 */
export interface GcSnapshot { [kind: string]: { count: number; sum_s: number; buckets: Map<number, number> } }

export interface GcSpan {
  /** Per kind (minor, major, incremental, weakcb): pauses, their total ms, and how many took over 10 ms and over 100 ms. */
  [kind: string]: { pauses: number; total_ms: number; over_10ms: number; over_100ms: number };
}

const LINE = /^nodejs_gc_duration_seconds_(bucket|sum|count)\{(?:le="([^"]+)",)?kind="(\w+)"\} ([\d.eE+-]+)$/;

export function parseGc(metrics: string): GcSnapshot {
  const out: GcSnapshot = {};
  for (const line of metrics.split('\n')) {
    const m = LINE.exec(line.trim());
    if (!m) continue;
    const [, part, le, kind, value] = m;
    const k = (out[kind!] ??= { count: 0, sum_s: 0, buckets: new Map() });
    if (part === 'sum') k.sum_s = Number(value);
    else if (part === 'count') k.count = Number(value);
    else if (le !== '+Inf') k.buckets.set(Number(le), Number(value));
  }
  return out;
}

/** `url`: the server's metrics listener (METRICS_PORT), not its API port. */
export async function scrapeGc(url: string): Promise<GcSnapshot> {
  const r = await fetch(`${url}/metrics`);
  if (!r.ok) throw new Error(`/metrics answered ${r.status}`);
  return parseGc(await r.text());
}

/** Pauses between two snapshots. Bucket bounds are cumulative (≤ le), so "over x" is count − bucket(x). */
export function gcSpan(before: GcSnapshot, after: GcSnapshot): GcSpan {
  const span: GcSpan = {};
  for (const [kind, a] of Object.entries(after)) {
    const b = before[kind] ?? { count: 0, sum_s: 0, buckets: new Map<number, number>() };
    const pauses = a.count - b.count;
    const within = (le: number) => (a.buckets.get(le) ?? a.count) - (b.buckets.get(le) ?? b.count);
    span[kind] = { pauses, total_ms: Math.round((a.sum_s - b.sum_s) * 10_000) / 10, over_10ms: pauses - within(0.01), over_100ms: pauses - within(0.1) };
  }
  return span;
}
