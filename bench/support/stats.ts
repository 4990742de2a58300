/** Small helpers every benchmark shares: command-line flags and latency summaries. */

/** `--name value` from the command line, else `dflt`. */
export const argStr = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
export const arg = (name: string, dflt: number): number => Number(argStr(name, String(dflt)));

/** The p-th percentile of an ascending array (nearest rank). */
export const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
/** The median of the finite values (the mean of the middle two for an even count); NaN when none. */
export const median = (v: number[]): number => {
  const s = v.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[s.length >> 1]! : (s[(s.length >> 1) - 1]! + s[s.length >> 1]!) / 2) : NaN;
};
export const r2 = (n: number): number => Math.round(n * 100) / 100;
export const mb = (bytes: number): number => Math.round(bytes / 1048576);

/** Count and p50/p95/p99 of latencies in ms (2 decimals). */
export const summary = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50_ms: r2(pct(s, 50)), p95_ms: r2(pct(s, 95)), p99_ms: r2(pct(s, 99)) };
};
/** The same with the maximum. */
export const summaryWithMax = (ms: number[]) => ({ ...summary(ms), max_ms: r2(ms.length ? ms.reduce((a, b) => Math.max(a, b)) : NaN) });

/** The open-loop rate at `share` of a flat-out rate (2xx/s), in requests per second; throws on a rate that cannot be paced. */
export function pacedRate(flatOutRps: number, share: number): number {
  if (!(flatOutRps > 0) || !Number.isFinite(flatOutRps)) throw new Error(`flat out was ${flatOutRps} 2xx/s: nothing to pace at a share of`);
  if (!(share > 0 && share <= 1)) throw new Error(`share of flat out must be in (0, 1], got ${share}`);
  return Math.round(flatOutRps * share * 100) / 100;
}
