/** Order statistics used by the rent and GDV models (the quantiles themselves: lib/stats.ts). Pure. */

import { median, quantileSorted } from '../../lib/stats.ts';

export { median, quantileSorted };

export interface RentStats {
  median_pcm: number;
  mean_pcm: number;
  p25_pcm: number;
  p75_pcm: number;
  sample_size: number;
}

const r2 = (v: number) => Math.round(v * 100) / 100;

/** Median, mean, quartiles and count of monthly rents, to the penny. */
export function rentStats(rents: readonly number[]): RentStats {
  const s = [...rents].sort((a, b) => a - b);
  return {
    median_pcm: r2(quantileSorted(s, 0.5)),
    mean_pcm: r2(s.reduce((t, v) => t + v, 0) / s.length),
    p25_pcm: r2(quantileSorted(s, 0.25)),
    p75_pcm: r2(quantileSorted(s, 0.75)),
    sample_size: s.length,
  };
}

/** Rounded to one decimal place (a rate or percentage as answers show it). */
export const round1 = (x: number): number => Math.round(x * 10) / 10;
