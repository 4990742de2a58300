import { ApiProblem } from '../api.ts';
import type { Ctx } from '../app.ts';
import { timeChart } from '../charts.ts';
import { add, clear, facts, h, table } from '../dom.ts';
import { count, growth, money, pct, toEpoch } from '../format.ts';
import { paidSection, problemNote } from '../section.ts';

type Any = any;

/** How the API names an area of each kind in a query: a sector is a postcode written with its space. */
export function areaQuery(code: string): string {
  if (/^[EWSN]\d{8}$/.test(code)) return `local_authority=${code}`;
  if (/^[A-Z]{1,2}\d[A-Z\d]? \d$/.test(code)) return `postcode=${encodeURIComponent(code)}`;
  return `outcode=${encodeURIComponent(code)}`;
}

export function areaPage(ctx: Ctx, code: string): void {
  const { api, main } = ctx;
  const q = areaQuery(code);
  clear(
    main,
    h('h1', {}, `Area ${code}`),
    h('p', { class: 'muted' }, 'Each section says what it costs before it is loaded.'),
    paidSection(api, {
      id: 'profile',
      title: 'Area profile',
      parts: [{ path: `/areas/${encodeURIComponent(code)}` }],
      render: ([a], into) => {
        if (a instanceof ApiProblem) return void into.append(problemNote(a));
        const p = a as Any;
        into.append(
          facts([
            ['Name', p.name],
            ['Level', p.level],
            ['Country', p.country],
            ['Addresses', count(p.addresses)],
          ]),
          table(['Property type', 'Homes', 'Share'], (p.property_types ?? []).map((t: Any) => [t.value, count(t.count), pct(t.share * 100)])),
        );
      },
    }),
    paidSection(api, {
      id: 'prices',
      title: 'Prices',
      parts: [{ path: `/prices/trends?${q}` }],
      render: ([t], into) => {
        if (t instanceof ApiProblem) return void into.append(problemNote(t));
        const tr = t as Any;
        const months = tr.months as Any[];
        into.append(
          h('p', {}, `Index area: ${tr.index_area.level} ${tr.index_area.code}${tr.index_area.reason ? ` (${tr.index_area.reason})` : ''}. Base ${tr.index_base}; to ${tr.as_of_month}.`),
          timeChart('House price index and sales', months.map((m) => toEpoch(m.month)), [
            { label: 'index', values: months.map((m) => m.index), color: '#1f5fa8' },
            { label: 'sales', values: months.map((m) => m.sales), color: '#b34700', bars: true, right: true },
          ]),
          facts([
            ['Growth, 1 year', growth(tr.growth?.['1y'])],
            ['Growth, 3 years', growth(tr.growth?.['3y'])],
            ['Growth, 5 years', growth(tr.growth?.['5y'])],
            ['Growth, 10 years', growth(tr.growth?.['10y'])],
            ['Sales in the last 12 months', count(tr.sales_12m)],
          ]),
        );
      },
    }),
    paidSection(api, {
      id: 'rents',
      title: 'Rents and yields',
      parts: [{ path: `/rents/long-term?${q}` }, { path: `/yields?${q}` }],
      render: ([r, y], into) => {
        if (r instanceof ApiProblem) into.append(problemNote(r));
        else {
          const rents = r as Any;
          into.append(
            table(['Bedrooms', 'Median rent', 'Lower quartile', 'Upper quartile', 'Lets'], rents.by_bedrooms.map((b: Any) => [b.bedrooms, money(b.median_pcm), money(b.p25_pcm), money(b.p75_pcm), count(b.sample_size)]), `Long-term rents per month${rents.period ? `, ${rents.period.from} to ${rents.period.to}` : ''}`),
          );
        }
        if (y instanceof ApiProblem) into.append(problemNote(y));
        else {
          const ys = y as Any;
          into.append(table(['Bedrooms', 'Gross yield', 'Median price', 'Sales', 'Note'], ys.by_bedrooms.map((b: Any) => [b.bedrooms, pct(b.gross_yield_pct, 2), money(b.median_price), count(b.sales_count), b.note ?? null]), 'Gross yields'));
        }
      },
    }),
    paidSection(api, {
      id: 'str',
      title: 'Short-term lets',
      parts: [{ path: `/str/market?${q}&include=summary,grade,historical` }],
      render: ([m], into) => {
        if (m instanceof ApiProblem) return void into.append(problemNote(m));
        const s = m as Any;
        const hist = (s.historical ?? []) as Any[];
        add(
          into,
          s.grade
            ? h('p', { class: 'grade' }, h('span', { class: 'letter', 'aria-label': `grade ${s.grade.letter}` }, s.grade.letter), ` Score ${s.grade.score_0_100} of 100 over ${s.grade.listings} listings. Strongest: ${s.grade.strongest.join(', ')}. Weakest: ${s.grade.weakest.join(', ')}.`)
            : null,
          s.summary
            ? facts([
                ['Average daily rate', money(s.summary.adr)],
                ['Occupancy', pct(s.summary.occupancy_pct)],
                ['Revenue per month', money(s.summary.revenue_pcm)],
                ['Active listings', count(s.summary.active_listings)],
              ])
            : null,
          timeChart(`Short-term lets, ${hist.length} months`, hist.map((x) => toEpoch(x.month)), [
            { label: 'revenue per month (£)', values: hist.map((x) => x.revenue_pcm), color: '#1f5fa8' },
            { label: 'occupancy %', values: hist.map((x) => x.occupancy_pct), color: '#b34700', right: true },
          ]),
        );
      },
    }),
  );
}
