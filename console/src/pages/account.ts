import { Api, ApiProblem } from '../api.ts';
import type { Ctx } from '../app.ts';
import { timeChart } from '../charts.ts';
import { clear, facts, h, table } from '../dom.ts';
import { count, toEpoch } from '../format.ts';

interface Account {
  account_id: string;
  name: string;
  plan: { tier: string; name: string; one_time_allowance: boolean };
  allowance: number | null;
  remaining: number | null;
  used_this_cycle: number;
  cycle: { start: string; end: string };
  rate_limit: { limit: number; window_seconds: number } | null;
  pending_downgrade: { tier: string; effective: string } | null;
}
interface Usage {
  from: string;
  to: string;
  total_calls: number;
  total_credits: number;
  by_endpoint: { endpoint: string; calls: number; credits: number }[];
  by_day: { date: string; calls: number; credits: number }[];
}

/** Plan, credits, the rate limit and usage (all free calls), and key rotation. */
export async function accountPage(ctx: Ctx): Promise<void> {
  const { api, main } = ctx;
  clear(main, h('h1', {}, 'Account'), h('p', {}, 'Loading (free)…'));
  // Never from the session cache: the balance moves with every paid call.
  const [acc, usage] = await Promise.all([fresh<Account>(api, '/account'), fresh<Usage>(api, '/account/usage')]);
  const days = usage.by_day;
  clear(
    main,
    h('h1', {}, 'Account'),
    h(
      'section',
      { 'aria-labelledby': 'plan-h' },
      h('h2', { id: 'plan-h' }, 'Plan and credits'),
      facts([
        ['Account', `${acc.name} (${acc.account_id})`],
        ['Plan', `${acc.plan.name}${acc.plan.one_time_allowance ? ' (one-time allowance)' : ''}`],
        ['Credits left', acc.remaining === null ? 'unlimited' : count(acc.remaining)],
        ['Used this cycle', count(acc.used_this_cycle)],
        ['Allowance', acc.allowance === null ? 'unlimited' : count(acc.allowance)],
        ['Cycle', `${acc.cycle.start.slice(0, 10)} to ${acc.cycle.end.slice(0, 10)}`],
        ['Rate limit', acc.rate_limit ? `${acc.rate_limit.limit} requests per ${acc.rate_limit.window_seconds} s` : 'none'],
        ['Pending change', acc.pending_downgrade ? `${acc.pending_downgrade.tier} from ${acc.pending_downgrade.effective}` : 'none'],
      ]),
    ),
    h(
      'section',
      { 'aria-labelledby': 'usage-h' },
      h('h2', { id: 'usage-h' }, `Usage ${usage.from} to ${usage.to}`),
      h('p', {}, `${count(usage.total_calls)} paid calls, ${count(usage.total_credits)} credits.`),
      timeChart('Credits by day', days.map((d) => toEpoch(d.date)), [
        { label: 'credits', values: days.map((d) => d.credits), color: '#1f5fa8', bars: true },
        { label: 'calls', values: days.map((d) => d.calls), color: '#b34700', right: true },
      ]),
      table(['Endpoint', 'Calls', 'Credits'], usage.by_endpoint.map((e) => [e.endpoint, count(e.calls), count(e.credits)]), 'Usage by endpoint'),
    ),
    rotateSection(ctx),
  );
}

function rotateSection(ctx: Ctx): HTMLElement {
  const out = h('div', { id: 'rotate-out', 'aria-live': 'polite' });
  const confirm = h('button', { type: 'button', id: 'rotate-confirm', hidden: true }, 'Yes, rotate my key now');
  const start = h('button', { type: 'button', id: 'rotate' }, 'Rotate key… (free)');
  start.addEventListener('click', () => {
    confirm.hidden = false;
    confirm.focus();
  });
  confirm.addEventListener('click', async () => {
    confirm.disabled = true;
    try {
      const r = await fetch('/v1/account/key/rotate', { method: 'POST', headers: { Authorization: `Bearer ${ctx.api.key}` } });
      const body = await r.json();
      if (!r.ok) throw new ApiProblem(r.status, body);
      // The new key is shown once, here, and the console carries on with it.
      const next = new Api(body.api_key, ctx.api.costs);
      next.spent = ctx.api.spent;
      Api.remember(body.api_key);
      clear(
        out,
        h('p', {}, 'Your new key, shown once: store it now. The old key stopped working at once.'),
        h('output', { id: 'new-key', class: 'key' }, body.api_key),
      );
      confirm.hidden = true;
      ctx.api = next;
    } catch (err) {
      clear(out, h('p', { class: 'error', role: 'alert' }, `Rotation failed: ${(err as Error).message}`));
      confirm.disabled = false;
    }
  });
  return h(
    'section',
    { 'aria-labelledby': 'rotate-h' },
    h('h2', { id: 'rotate-h' }, 'API key'),
    h('p', {}, 'Rotating issues a new key and revokes the current one immediately, for every program that uses it.'),
    start,
    ' ',
    confirm,
    out,
  );
}

async function fresh<T>(api: Api, path: string): Promise<T> {
  const r = await fetch(`/v1${path}`, { headers: { Authorization: `Bearer ${api.key}` } });
  const body = await r.json();
  if (!r.ok) throw new ApiProblem(r.status, body);
  return body as T;
}
