import KoaRouter from '@koa/router';
import type { ParameterizedContext } from 'koa';
import { ApiError } from './errors.ts';
import type { ApiState } from './state.ts';

export type Ctx = ParameterizedContext<ApiState> & { params?: Record<string, string> };
export type Middleware = (ctx: Ctx, next: () => Promise<unknown>) => Promise<void> | void;

/**
 * Routes with OpenAPI-style templates (`/properties/{uprn}`) on @koa/router, each running
 * its own chain. What the router leaves unanswered becomes a problem+json error: a known
 * path with another method is 405 with Allow (an unknown method, which @koa/router calls
 * 501, too), an unknown path 404.
 */
function notAllowed(method: string, allow: string): ApiError {
  return new ApiError('method_not_allowed', `${method} is not allowed here; use ${allow}.`, undefined, { Allow: allow });
}

export class Router {
  private readonly inner = new KoaRouter<ApiState>();
  /** Templates (as patterns) whose GET refuses HEAD: the metered routes. */
  private readonly noHead: RegExp[] = [];

  /** A route; a GET one answers HEAD too (headers without the body), as a load balancer's probe expects. */
  add(method: string, template: string, ...chain: Middleware[]): this {
    return this.register(method, template, method === 'GET', chain);
  }

  /**
   * A metered route: @koa/router would answer HEAD through its GET and run the credit chain
   * for a body-less answer, so HEAD is refused like any method not declared, and OPTIONS does
   * not offer it.
   */
  addMetered(method: string, template: string, ...chain: Middleware[]): this {
    if (method === 'GET') this.noHead.push(new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`));
    return this.register(method, template, false, chain);
  }

  private register(method: string, template: string, head: boolean, chain: Middleware[]): this {
    const routeId = `${method} ${template}`;
    const tag: Middleware = async (ctx, next) => {
      if (ctx.method !== method && !(head && ctx.method === 'HEAD')) throw notAllowed(ctx.method, method);
      ctx.state.routeId = routeId;
      await next();
    };
    this.inner.register(template.replace(/\{(\w+)\}/g, ':$1'), [method], [tag, ...chain] as never[]);
    return this;
  }

  middleware() {
    const routes = this.inner.routes();
    const allowed = this.inner.allowedMethods();
    return async (ctx: Ctx, next: () => Promise<unknown>): Promise<void> => {
      await routes(ctx as never, () => allowed(ctx as never, next));
      if (ctx.method === 'OPTIONS' && this.noHead.some((re) => re.test(ctx.path))) {
        ctx.set('Allow', String(ctx.response.get('Allow')).split(/,\s*/).filter((m) => m && m !== 'HEAD').join(', '));
      }
      if (ctx.status === 405 || ctx.status === 501) {
        const allow = String(ctx.response.get('Allow')).split(/,\s*/).filter((m) => m && m !== 'HEAD').join(', ');
        throw notAllowed(ctx.method, allow);
      }
      if (ctx.body === undefined && ctx.status === 404) throw new ApiError('not_found', `No such endpoint: ${ctx.path.slice(0, 200)}`);
    };
  }
}
