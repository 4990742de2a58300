import { ApiProblem } from '../api.ts';
import type { Ctx } from '../app.ts';
import { clear, h } from '../dom.ts';
import { credits } from '../format.ts';

interface Hit { uprn: number | string; address: string; postcode: string }

/**
 * The address box: a WAI-ARIA combobox. Typing waits 300 ms for a pause before it asks
 * (each lookup costs what the API lists; a query already asked comes from the session cache),
 * arrows move through the answers, Enter opens one, Escape closes the list.
 */
export function searchPage(ctx: Ctx): void {
  const { api, main } = ctx;
  const searchCost = api.listed('GET /addresses/search');
  const recordCost = api.listed('GET /properties/{uprn}');
  const input = h('input', {
    id: 'address', type: 'text', role: 'combobox', autocomplete: 'off', spellcheck: 'false',
    'aria-autocomplete': 'list', 'aria-expanded': 'false', 'aria-controls': 'address-options', 'aria-describedby': 'address-help',
  });
  const list = h('ul', { id: 'address-options', role: 'listbox', 'aria-label': 'Matching addresses', class: 'options', hidden: true });
  const note = h('p', { id: 'address-note', class: 'muted', 'aria-live': 'polite' });
  let hits: Hit[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;

  const render = () => {
    clear(list, ...hits.map((hit, i) => h('li', { id: `opt-${i}`, role: 'option', 'aria-selected': i === active ? 'true' : 'false', class: i === active ? 'active' : '', onclick: () => choose(i) }, hit.address)));
    list.hidden = hits.length === 0;
    input.setAttribute('aria-expanded', hits.length > 0 ? 'true' : 'false');
    if (active >= 0) input.setAttribute('aria-activedescendant', `opt-${active}`);
    else input.removeAttribute('aria-activedescendant');
  };
  const choose = (i: number) => {
    const hit = hits[i];
    if (!hit) return;
    ctx.chosen.add(String(hit.uprn));
    ctx.go(`#/property/${hit.uprn}`);
  };
  const ask = async (q: string) => {
    const mine = ++asked;
    try {
      const r = await api.get<{ results: Hit[] }>(`/addresses/search?q=${encodeURIComponent(q)}&limit=8`);
      if (mine !== asked) return; // a later keystroke's answer wins
      hits = r.body.results;
      active = hits.length > 0 ? 0 : -1;
      note.textContent = `${hits.length} match${hits.length === 1 ? '' : 'es'}${r.fromCache ? ' (from this session, no charge)' : ` (${credits(r.charged)})`}.`;
      render();
    } catch (err) {
      if (mine !== asked) return;
      hits = [];
      render();
      note.textContent = err instanceof ApiProblem ? err.message : `Search failed: ${(err as Error).message}`;
    }
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    const q = input.value.trim();
    if (q.length < 3) {
      hits = [];
      render();
      note.textContent = '';
      return;
    }
    timer = setTimeout(() => void ask(q), 300);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' && hits.length) {
      active = (active + 1) % hits.length;
      render();
      e.preventDefault();
    } else if (e.key === 'ArrowUp' && hits.length) {
      active = (active - 1 + hits.length) % hits.length;
      render();
      e.preventDefault();
    } else if (e.key === 'Enter' && active >= 0) {
      choose(active);
      e.preventDefault();
    } else if (e.key === 'Escape') {
      hits = [];
      render();
    }
  });

  const area = h('input', { id: 'area-code', type: 'text', autocomplete: 'off', 'aria-describedby': 'area-help', placeholder: 'BS1, BS1 1 or E06000023' });
  const areaForm = h(
    'form',
    { class: 'card', 'aria-labelledby': 'area-h' },
    h('h2', { id: 'area-h' }, 'An area'),
    h('label', { for: 'area-code' }, 'Outcode, sector or district code'),
    area,
    h('p', { id: 'area-help', class: 'muted' }, 'Opens the area page; nothing is charged until you load a section there.'),
    h('button', { type: 'submit' }, 'Open area page'),
  );
  areaForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const code = area.value.trim().toUpperCase();
    if (code) ctx.go(`#/area/${encodeURIComponent(code)}`);
  });

  clear(
    main,
    h('h1', {}, 'Find a property'),
    h(
      'div',
      { class: 'card combo' },
      h('label', { for: 'address' }, 'Address'),
      input,
      list,
      h('p', { id: 'address-help', class: 'muted' }, `Each lookup costs ${credits(searchCost)} (a lookup already made in this tab is free). Opening a property costs ${credits(recordCost)}. Arrow keys move through the matches; Enter opens one.`),
      note,
    ),
    areaForm,
  );
  input.focus();
}
