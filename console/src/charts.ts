/**
 * Time-series charts with uPlot (docs/adr/0010-console.md: 48 kB, canvas, no dependencies).
 * Each chart is a <figure> whose caption says what it shows and how many points it has.
 */
import uPlot from 'uplot';
import { h } from './dom.ts';

export interface Series {
  label: string;
  values: (number | null)[];
  color: string;
  /** Draw as bars (volumes, counts) rather than a line. */
  bars?: boolean;
  /** Values on a second axis on the right (for a count beside prices). */
  right?: boolean;
}

const short = new Intl.NumberFormat('en-GB', { notation: 'compact', maximumFractionDigits: 1 });
/** Axis labels: 250000 → "250K", so a price axis fits its margin. */
const compact = (v: number): string => short.format(v);

export function timeChart(caption: string, xs: number[], series: Series[], width = 680): HTMLElement {
  const figure = h('figure', { class: 'chart', 'data-chart': caption, 'data-points': xs.length });
  figure.append(h('figcaption', {}, `${caption} (${xs.length} point${xs.length === 1 ? '' : 's'})`));
  if (xs.length === 0) {
    figure.append(h('p', { class: 'muted' }, 'Nothing to chart.'));
    return figure;
  }
  const hasRight = series.some((s) => s.right);
  const opts: uPlot.Options = {
    width,
    height: 240,
    series: [
      {},
      ...series.map((s) => ({
        label: s.label,
        stroke: s.color,
        fill: s.bars ? `${s.color}55` : undefined,
        width: s.bars ? 0 : 2,
        scale: s.right ? 'right' : 'y',
        points: { show: xs.length < 40 },
        ...(s.bars ? { paths: uPlot.paths.bars!({ size: [0.6, 40] }) } : {}),
      })),
    ],
    legend: { live: false },
    axes: [{}, { scale: 'y', size: 64, values: (_u, splits) => splits.map(compact) }, ...(hasRight ? [{ scale: 'right', side: 1, size: 56, grid: { show: false }, values: (_u: uPlot, splits: number[]) => splits.map(compact) }] : [])],
    scales: { x: { time: true } },
  };
  const data = [xs, ...series.map((s) => s.values)] as uPlot.AlignedData;
  const holder = h('div', { class: 'chart-canvas' });
  figure.append(holder);
  new uPlot(opts, data, holder);
  return figure;
}
