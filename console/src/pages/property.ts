import { ApiProblem } from '../api.ts';
import type { Ctx } from '../app.ts';
import { timeChart } from '../charts.ts';
import { add, clear, facts, h, table } from '../dom.ts';
import { count, credits, money, pct, toEpoch } from '../format.ts';
import { drawMap, type MapLayer, type MapPoint } from '../map.ts';
import { paidSection, problemNote } from '../section.ts';

type Any = any;

/** The property page: the record, then panels the customer loads, each priced on its button. */
export async function propertyPage(ctx: Ctx, uprn: string): Promise<void> {
  const { api, main } = ctx;
  const recordPath = `/properties/${uprn}`;
  // A home chosen from the search box was priced there; a shared link asks first.
  if (!ctx.chosen.has(uprn) && api.costOf('GET', recordPath) > 0) {
    const go = h('button', { type: 'button', id: 'record-load' }, `Open this property: ${credits(api.costOf('GET', recordPath))}`);
    go.addEventListener('click', () => {
      ctx.chosen.add(uprn);
      void propertyPage(ctx, uprn);
    });
    clear(main, h('h1', {}, `Property ${uprn}`), go);
    go.focus();
    return;
  }
  clear(main, h('h1', {}, 'Property'), h('p', {}, 'Loading…'));
  let rec: Any;
  try {
    rec = (await api.get(recordPath)).body;
  } catch (err) {
    clear(main, h('h1', {}, `Property ${uprn}`), err instanceof ApiProblem ? problemNote(err) : h('p', {}, String(err)));
    return;
  }
  const outcode = String(rec.postcode).split(' ')[0]!;
  const home: MapPoint = { lat: rec.location.lat, lng: rec.location.lng, label: rec.address };
  clear(
    main,
    h('h1', { id: 'property-title' }, rec.address),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'record-h' },
      h('h2', { id: 'record-h' }, 'Record'),
      facts([
        ['UPRN', String(rec.uprn)],
        ['Postcode', rec.postcode],
        ['Country', rec.country],
        ['Type', [rec.property_type, rec.build_form].filter(Boolean).join(', ')],
        ['Floor area', rec.floor_area_sqft === null ? null : `${count(rec.floor_area_sqft)} sq ft`],
        ['Bedrooms', rec.bedrooms],
        ['Tenure', rec.tenure],
        ['Built', rec.construction_age],
        ['Energy rating', rec.epc ? `${rec.epc.current_rating ?? '?'} now, ${rec.epc.potential_rating ?? '?'} potential` : null],
        ['Last sold', rec.last_sold_price === null ? null : `${money(rec.last_sold_price)} on ${rec.last_sold_date}`],
      ]),
      h('p', {}, h('a', { href: `#/area/${encodeURIComponent(outcode)}` }, `Area page for ${outcode}`)),
    ),
    valuations(ctx, uprn),
    history(ctx, uprn),
    risks(ctx, uprn),
    around(ctx, uprn, home),
  );
}

function valuations(ctx: Ctx, uprn: string): HTMLElement {
  return paidSection(ctx.api, {
    id: 'valuations',
    title: 'Valuations',
    parts: [{ path: `/valuations/${uprn}/sale` }, { path: `/valuations/${uprn}/rental` }, { path: `/valuations/${uprn}/hmo` }],
    render: ([sale, rent, hmo], into) => {
      const rows: (string | null | HTMLElement)[][] = [];
      if (sale instanceof ApiProblem) rows.push(['Sale', problemNote(sale), null, null, null]);
      else {
        const s = sale as Any;
        rows.push(['Sale', money(s.value), `${money(s.lower_bound)} to ${money(s.upper_bound)}`, s.confidence, s.method]);
      }
      if (rent instanceof ApiProblem) rows.push(['Rent (per month)', problemNote(rent), null, null, null]);
      else {
        const r = rent as Any;
        rows.push(['Rent (per month)', money(r.monthly_rent), `${money(r.min_rent)} to ${money(r.max_rent)}`, r.confidence, `${r.comparable_count} lets within ${count(r.search_radius_m)} m`]);
      }
      if (hmo instanceof ApiProblem) rows.push(['HMO value', problemNote(hmo), null, null, null]);
      else {
        const m = hmo as Any;
        rows.push(['HMO value', money(m.hmo_sale_value.point), `${money(m.hmo_sale_value.low)} to ${money(m.hmo_sale_value.high)}`, m.hmo_sale_value.confidence, `${m.gross_rent_pcm.rooms} rooms at ${money(m.gross_rent_pcm.per_room_avg)}, gross yield ${pct(m.gross_yield_pct, 2)}`]);
      }
      into.append(table(['Valuation', 'Estimate', 'Range', 'Confidence', 'Method and evidence'], rows));
    },
  });
}

function history(ctx: Ctx, uprn: string): HTMLElement {
  return paidSection(ctx.api, {
    id: 'history',
    title: 'Sales and certificate history',
    parts: [{ path: `/properties/${uprn}/sales` }, { path: `/properties/${uprn}/epc` }],
    render: ([sales, epc], into) => {
      if (sales instanceof ApiProblem) into.append(problemNote(sales));
      else {
        const s = (sales as Any).sales.slice().reverse() as Any[];
        into.append(
          timeChart('Sale prices', s.map((x) => toEpoch(x.date)), [
            { label: 'price paid (£)', values: s.map((x) => x.price), color: '#1f5fa8' },
            { label: 'in today\'s money (£)', values: s.map((x) => x.price_today), color: '#7a4fb3' },
          ]),
          table(['Date', 'Price', 'Today', 'Type', 'Tenure'], s.map((x) => [x.date, money(x.price), money(x.price_today), x.property_type, x.tenure]), `Price Paid, as of ${(sales as Any).source?.as_of ?? 'unknown'}`),
        );
      }
      if (epc instanceof ApiProblem) into.append(problemNote(epc));
      else {
        const c = (epc as Any).certificates.slice().sort((a: Any, b: Any) => a.lodged.localeCompare(b.lodged)) as Any[];
        into.append(
          timeChart('Energy efficiency', c.map((x) => toEpoch(x.lodged)), [
            { label: 'current efficiency', values: c.map((x) => x.current_efficiency), color: '#2e7d32' },
            { label: 'potential efficiency', values: c.map((x) => x.potential_efficiency), color: '#9e9d24' },
          ]),
          table(['Lodged', 'Rating', 'Potential', 'Floor area'], c.map((x) => [x.lodged, x.current_rating, x.potential_rating, x.floor_area_sqft === null ? null : `${count(x.floor_area_sqft)} sq ft`]), `Energy certificates, as of ${(epc as Any).source?.as_of ?? 'unknown'}`),
        );
      }
    },
  });
}

function risks(ctx: Ctx, uprn: string): HTMLElement {
  return paidSection(ctx.api, {
    id: 'risks',
    title: 'Risks and planning',
    parts: [{ path: `/risks/${uprn}` }, { path: `/planning/constraints?uprn=${uprn}` }],
    render: ([risk, planning], into) => {
      if (risk instanceof ApiProblem) into.append(problemNote(risk));
      else {
        const r = risk as Any;
        const flag = (v: boolean | null) => (v === null ? 'not known (layer not covered)' : v ? 'yes' : 'no');
        add(
          into,
          facts([
            ['Flood zone', r.flood.flood_zone === null ? 'not known' : String(r.flood.flood_zone)],
            ['Conservation area', flag(r.planning.conservation_area)],
            ['Article 4 direction', flag(r.planning.article_4)],
            ['Listed building', flag(r.planning.listed_building)],
            ['Below letting minimum (EPC)', flag(r.energy.below_letting_minimum)],
          ]),
          h('ul', { class: 'flags' }, ...r.flags.map((f: Any) => h('li', {}, f.message))),
          r.coverage?.note ? h('p', { class: 'coverage' }, `Coverage: ${r.coverage.note}`) : null,
        );
      }
      if (planning instanceof ApiProblem) into.append(problemNote(planning));
      else {
        const p = planning as Any;
        const list = (p.constraints ?? p.designations ?? []) as Any[];
        into.append(table(['Dataset', 'Name', 'Reference'], list.map((d) => [d.dataset, d.name, d.reference]), `Planning constraints (${list.length})`));
        if (p.coverage?.note) into.append(h('p', { class: 'coverage' }, `Coverage: ${p.coverage.note}`));
      }
    },
  });
}

const pointOf = (x: Any): { lat: number; lng: number } | null => (x?.location && typeof x.location.lat === 'number' ? x.location : null);

function around(ctx: Ctx, uprn: string, home: MapPoint): HTMLElement {
  return paidSection(ctx.api, {
    id: 'around',
    title: 'Map of what is around',
    parts: [
      { path: `/prices/comparables?uprn=${uprn}&radius_m=1000` },
      { path: `/listings?uprn=${uprn}` },
      { path: `/schools?uprn=${uprn}` },
      { path: `/crime?uprn=${uprn}` },
      { path: `/hmo/licences?uprn=${uprn}` },
    ],
    render: ([comps, listings, schools, crime, hmos], into) => {
      const layers: MapLayer[] = [];
      const notes: HTMLElement[] = [];
      const add = (name: string, color: string, answer: unknown, items: (a: Any) => Any[], label: (x: Any) => string) => {
        if (answer instanceof ApiProblem) {
          notes.push(h('li', {}, `${name}: `, problemNote(answer)));
          return;
        }
        const all = items(answer);
        const placed = all.filter(pointOf);
        layers.push({ name, color, points: placed.map((x) => ({ ...pointOf(x)!, label: label(x) })) });
        notes.push(h('li', {}, `${name}: ${all.length} found, ${placed.length} placed on the map`));
      };
      add('Sold comparables', '#1f5fa8', comps, (a) => a.comparables, (x) => `${x.address}: ${money(x.price)} (${x.date})`);
      add('Listings', '#b34700', listings, (a) => a.listings, (x) => `${x.address}: ${money(x.price)} (${x.bedrooms ?? '?'} bed)`);
      add('Schools', '#2e7d32', schools, (a) => a.schools, (x) => `${x.name} (${x.phase ?? 'school'})`);
      add('Licensed HMOs', '#7a4fb3', hmos, (a) => a.licences, (x) => `${x.address}: up to ${x.max_occupants ?? '?'} occupants`);
      if (crime instanceof ApiProblem) notes.push(h('li', {}, 'Crime: ', problemNote(crime)));
      else {
        const c = crime as Any;
        layers.push({ name: 'Crime', color: '#c62828', points: [], circle: { lat: c.location.lat, lng: c.location.lng, radius_m: c.location.radius_m, label: `${count(c.total)} street crimes within ${c.location.radius_m} m, ${c.months[0]} to ${c.months[c.months.length - 1]}` } });
        notes.push(h('li', {}, `Crime: ${count(c.total)} street crimes within ${c.location.radius_m} m over ${c.months.length} months (police.uk)`));
      }
      const mapEl = h('div', { class: 'map', id: 'map', role: 'region', 'aria-label': 'Map of the home and what is around it' });
      into.append(mapEl, h('ul', { class: 'layer-notes' }, ...notes));
      drawMap(mapEl, home, layers);
    },
  });
}
