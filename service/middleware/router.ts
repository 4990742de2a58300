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

  add(method: string, template: string, ...chain: Middleware[]): this {
    const routeId = `${method} ${template}`;
    const tag: Middleware = async (ctx, next) => {
      // @koa/router answers HEAD through every GET route; here that would run the credit
      // chain for a body-less response, so HEAD is refused like any method not declared.
      if (ctx.method !== method) throw notAllowed(ctx.method, method);
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
      if (ctx.status === 405 || ctx.status === 501) {
        const allow = String(ctx.response.get('Allow')).split(/,\s*/).filter((m) => m && m !== 'HEAD').join(', ');
        throw notAllowed(ctx.method, allow);
      }
      if (ctx.body === undefined && ctx.status === 404) throw new ApiError('not_found', `No such endpoint: ${ctx.path.slice(0, 200)}`);
    };
  }
}
