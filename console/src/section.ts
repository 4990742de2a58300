import type { Api } from './api.ts';
import { ApiProblem } from './api.ts';
import { clear, h } from './dom.ts';
import { credits } from './format.ts';

/**
 * A panel that costs credits: its button says what loading it costs (0 for what this tab
 * already paid for) before anything is sent, and it shows each part's answer or its problem.
 */
export interface Part {
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

export function paidSection(
  api: Api,
  opts: { id: string; title: string; parts: Part[]; render: (answers: (unknown | ApiProblem)[], into: HTMLElement) => void; auto?: boolean },
): HTMLElement {
  const body = h('div', { class: 'section-body', id: `${opts.id}-body` });
  const button = h('button', { type: 'button', id: `${opts.id}-load`, class: 'load' });
  const label = () => {
    const cost = opts.parts.reduce((s, p) => s + api.costOf(p.method ?? 'GET', p.path, p.body), 0);
    button.textContent = cost === 0 ? `Show ${opts.title.toLowerCase()} (already paid for)` : `Load ${opts.title.toLowerCase()}: ${credits(cost)}`;
    button.dataset.cost = String(cost);
  };
  label();
  api.onSpend(label);
  const load = async () => {
    button.disabled = true;
    clear(body, h('p', { class: 'muted' }, 'Loading…'));
    const answers = await Promise.all(
      opts.parts.map((p) =>
        (p.method === 'POST' ? api.post(p.path, p.body) : api.get(p.path)).then(
          (a) => a.body as unknown,
          (e: unknown) => (e instanceof ApiProblem ? e : new ApiProblem(0, { detail: (e as Error).message })),
        ),
      ),
    );
    clear(body);
    opts.render(answers, body);
    button.hidden = true;
    body.dataset.loaded = 'true';
  };
  button.addEventListener('click', () => void load());
  const section = h('section', { class: 'card', id: opts.id, 'aria-labelledby': `${opts.id}-h` }, h('h2', { id: `${opts.id}-h` }, opts.title), button, body);
  if (opts.auto) void load();
  return section;
}

/** A part's problem as the customer should read it: the API's own detail (e.g. why a place is not covered). */
export function problemNote(p: ApiProblem): HTMLElement {
  const fields = p.body.errors?.map((e) => `${e.path}: ${e.message}`).join('; ');
  return h('p', { class: 'problem' }, `${p.body.title ?? 'Not available'}${p.status ? ` (${p.status})` : ''}: ${p.message}${fields ? ` (${fields})` : ''}`);
}
