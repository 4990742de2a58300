import type { ParameterizedContext } from 'koa';
import { z } from 'zod';
import type { FieldError } from '../../schemas/api/problem.ts';
import type { RouteDef } from '../routes/types.ts';
import { readJsonBody } from './body.ts';
import { ApiError } from './errors.ts';
import type { ApiState } from './state.ts';

/** The keys of a query schema whose values are arrays (repeatable parameters). */
function arrayKeys(schema: z.ZodType | undefined): Set<string> {
  const keys = new Set<string>();
  if (!(schema instanceof z.ZodObject)) return keys;
  for (const [k, v] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    let t: z.ZodType = v;
    while (t instanceof z.ZodOptional || t instanceof z.ZodDefault) t = t.unwrap() as z.ZodType;
    if (t instanceof z.ZodArray) keys.add(k);
  }
  return keys;
}

/** Query values as the schema expects them: blank means absent, repeatable ones as arrays. */
function queryObject(raw: Record<string, string | string[] | undefined>, arrays: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined || v === '') continue;
    if (arrays.has(k)) out[k] = (Array.isArray(v) ? v : [v]).filter((s) => s !== '');
    else out[k] = v;
  }
  return out;
}

const NO_PARAMETERS = z.strictObject({});

function issues(where: 'params' | 'query' | 'body', error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({ path: [where, ...i.path.map(String)].join('.'), message: i.message }));
}

/**
 * Validates path parameters, query and JSON body against the route's schemas, all three
 * at once so the 400 lists every bad field. Handlers get the parsed, typed values.
 */
export function validate(route: RouteDef, bodyLimit: number) {
  const arrays = arrayKeys(route.query);
  // Endpoints without a query schema take no parameters: an unknown one is a mistake.
  const querySchema = route.query ?? NO_PARAMETERS;
  return async (ctx: ParameterizedContext<ApiState> & { params?: Record<string, string> }, next: () => Promise<unknown>): Promise<void> => {
    const errors: FieldError[] = [];
    const parse = (where: 'params' | 'query' | 'body', schema: z.ZodType | undefined, value: unknown): unknown => {
      if (!schema) return undefined;
      const r = schema.safeParse(value);
      if (r.success) return r.data;
      errors.push(...issues(where, r.error));
      return undefined;
    };
    const params = parse('params', route.params, ctx.params ?? {});
    const query = parse('query', querySchema, queryObject(ctx.query, arrays));
    let body: unknown;
    if (route.body) body = parse('body', route.body, await readJsonBody(ctx, bodyLimit));
    if (errors.length > 0) throw new ApiError('invalid_request', `${errors.length} invalid field${errors.length === 1 ? '' : 's'}; see errors.`, errors);
    ctx.state.input = { params, query, body };
    await next();
  };
}
