/**
 * The console's only way to the API: same origin, the customer's key, and the costs the
 * API itself publishes (`x-credits-cost` in /v1/openapi.json), so the console never carries
 * a price list of its own. A paid answer is kept for the tab's session and served again
 * from there: the same request is never paid for twice. What was spent is the sum of the
 * `X-Credits-Cost` headers the API sent, so the console shows exactly what was charged.
 */
export interface Answer<T = any> {
  status: number;
  ok: boolean;
  body: T;
  /** Credits charged for this answer (0 when it came from the session cache). */
  charged: number;
  fromCache: boolean;
}

export class ApiProblem extends Error {
  constructor(readonly status: number, readonly body: { title?: string; detail?: string; code?: string; errors?: { path: string; message: string }[] }) {
    super(body.detail ?? body.title ?? `HTTP ${status}`);
  }
}

type Costs = Map<string, number>; // "GET /properties/{uprn}" → credits

const KEY = 'pi.console.key';
const SPENT = 'pi.console.spent';
const CACHE = 'pi.console.paid';
/** An answer larger than this is kept in memory only (sessionStorage holds about 5 MB a site). */
const KEEP_MAX_CHARS = 256_000;

export async function loadCosts(): Promise<Costs> {
  const r = await fetch('/v1/openapi.json');
  if (!r.ok) throw new Error(`the API's description could not be read (${r.status})`);
  const doc = (await r.json()) as { paths: Record<string, Record<string, { 'x-credits-cost'?: number }>> };
  const costs: Costs = new Map();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) if (typeof op['x-credits-cost'] === 'number') costs.set(`${method.toUpperCase()} ${path}`, op['x-credits-cost']);
  }
  return costs;
}

/** The route template a concrete path belongs to ("/properties/200000005/sales" → "/properties/{uprn}/sales"). */
export function templateOf(method: string, path: string, costs: Costs): string | undefined {
  const bare = path.split('?')[0]!;
  for (const key of costs.keys()) {
    const [m, t] = key.split(' ') as [string, string];
    if (m !== method) continue;
    const re = new RegExp(`^${t.replace(/\{\w+\}/g, '[^/]+')}$`);
    if (re.test(bare)) return key;
  }
  return undefined;
}

export class Api {
  private readonly cache = new Map<string, Answer>();
  private readonly inFlight = new Map<string, Promise<Answer>>();
  spent: number;
  private listeners: (() => void)[] = [];

  constructor(readonly key: string, readonly costs: Costs) {
    this.spent = Number(sessionStorage.getItem(SPENT) ?? '0') || 0;
    // What this tab already paid for survives a reload of the page.
    try {
      for (const [k, a] of JSON.parse(sessionStorage.getItem(CACHE) ?? '[]') as [string, Answer][]) this.cache.set(k, a);
    } catch {
      sessionStorage.removeItem(CACHE);
    }
  }

  static stored(): string | null {
    return sessionStorage.getItem(KEY);
  }
  static remember(key: string | null): void {
    if (key === null) {
      sessionStorage.removeItem(KEY);
      sessionStorage.removeItem(SPENT);
      sessionStorage.removeItem(CACHE);
    } else sessionStorage.setItem(KEY, key);
  }

  onSpend(f: () => void): void {
    this.listeners.push(f);
  }

  /** What a request will cost, or 0 when its answer is already in this session's cache. */
  costOf(method: string, path: string, body?: unknown): number {
    if (this.cache.has(cacheKey(method, path, body))) return 0;
    const t = templateOf(method, path, this.costs);
    return t ? this.costs.get(t)! : 0;
  }

  /** The listed cost of an endpoint template, whatever the cache holds. */
  listed(template: string): number {
    return this.costs.get(template) ?? 0;
  }

  get<T = any>(path: string): Promise<Answer<T>> {
    return this.send('GET', path);
  }
  post<T = any>(path: string, body: unknown): Promise<Answer<T>> {
    return this.send('POST', path, body);
  }

  private send<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const k = cacheKey(method, path, body);
    const hit = this.cache.get(k);
    if (hit) return Promise.resolve({ ...hit, charged: 0, fromCache: true });
    // Two panels asking for one thing at once share one request (and one charge).
    const running = this.inFlight.get(k);
    if (running) return running.then((a) => ({ ...a, charged: 0, fromCache: true }));
    const p = this.fetchWithRetry<T>(method, path, body).finally(() => this.inFlight.delete(k));
    this.inFlight.set(k, p);
    return p.then((a) => {
      if (a.ok) this.keep(k, a);
      return a;
    });
  }

  private keep(k: string, a: Answer): void {
    this.cache.set(k, a);
    const kept = [...this.cache].filter(([, v]) => JSON.stringify(v.body).length <= KEEP_MAX_CHARS);
    try {
      sessionStorage.setItem(CACHE, JSON.stringify(kept));
    } catch {
      // Storage full: the answer stays cached for this page's life only.
    }
  }

  private async fetchWithRetry<T>(method: string, path: string, body: unknown): Promise<Answer<T>> {
    for (let attempt = 0; ; attempt++) {
      const r = await fetch(`/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${this.key}`, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const charged = Number(r.headers.get('X-Credits-Cost') ?? '0') || 0;
      if (charged > 0) {
        this.spent += charged;
        sessionStorage.setItem(SPENT, String(this.spent));
        for (const f of this.listeners) f();
      }
      const json = await r.json().catch(() => ({}));
      // A 429 costs nothing: wait as the API says and ask again (three times at most).
      if (r.status === 429 && attempt < 3) {
        const wait = Math.min(15, Number(r.headers.get('Retry-After') ?? '1') || 1);
        status(`Rate limit reached: retrying in ${wait} s…`);
        await new Promise((res) => setTimeout(res, wait * 1000));
        status('');
        continue;
      }
      if (!r.ok) throw new ApiProblem(r.status, json);
      return { status: r.status, ok: true, body: json as T, charged, fromCache: false };
    }
  }
}

function cacheKey(method: string, path: string, body: unknown): string {
  return `${method} ${path} ${body === undefined ? '' : JSON.stringify(body)}`;
}

export function status(text: string): void {
  const el = document.getElementById('status');
  if (el) el.textContent = text;
}
