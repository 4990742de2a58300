import type { ParameterizedContext } from 'koa';
import { ApiError } from './errors.ts';
import type { ApiState } from './state.ts';

export type Ctx = ParameterizedContext<ApiState> & { params?: Record<string, string> };
export type Middleware = (ctx: Ctx, next: () => Promise<unknown>) => Promise<void> | void;

interface Entry {
  method: string;
  template: string;
  pattern: RegExp;
  keys: string[];
  chain: Middleware[];
}

/** `/properties/{uprn}/sales` → a regex with one capture per `{name}` (one path segment). */
function compile(template: string): { pattern: RegExp; keys: string[] } {
  const keys: string[] = [];
  const src = template
    .split('/')
    .map((seg) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      keys.push(m[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${src}$`), keys };
}

async function run(chain: Middleware[], ctx: Ctx): Promise<void> {
  const step = async (i: number): Promise<void> => {
    const mw = chain[i];
    if (mw) await mw(ctx, () => step(i + 1));
  };
  await step(0);
}

/**
 * A small exact router: OpenAPI-style templates, 404 problem for unknown paths and 405
 * with Allow for a known path with another method. Each route runs its own chain.
 */
export class Router {
  private readonly entries: Entry[] = [];

  add(method: string, template: string, ...chain: Middleware[]): this {
    this.entries.push({ method, template, ...compile(template), chain });
    return this;
  }

  middleware() {
    return async (ctx: Ctx, next: () => Promise<unknown>): Promise<void> => {
      const allowed: string[] = [];
      for (const e of this.entries) {
        const m = e.pattern.exec(ctx.path);
        if (!m) continue;
        if (e.method !== ctx.method) {
          allowed.push(e.method);
          continue;
        }
        const params: Record<string, string> = {};
        e.keys.forEach((k, i) => {
          const raw = m[i + 1]!;
          try {
            params[k] = decodeURIComponent(raw);
          } catch {
            params[k] = raw;
          }
        });
        ctx.params = params;
        ctx.state.routeId = `${e.method} ${e.template}`;
        await run(e.chain, ctx);
        return;
      }
      if (allowed.length > 0) {
        const allow = [...new Set(allowed)].join(', ');
        throw new ApiError('method_not_allowed', `${ctx.method} is not allowed here; use ${allow}.`, undefined, { Allow: allow });
      }
      await next();
      if (ctx.body === undefined && ctx.status === 404) throw new ApiError('not_found', `No such endpoint: ${ctx.path.slice(0, 200)}`);
    };
  }
}
