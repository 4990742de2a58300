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

/**
 * Query values as the schema expects them: blank means absent, repeatable ones as arrays.
 * A parameter that is not repeatable but given twice is an error naming it (rather than a
 * confusing type error from the array it would otherwise become).
 */
function queryObject(raw: Record<string, string | string[] | undefined>, arrays: Set<string>, errors: FieldError[]): Record<string, unknown> {
  // No prototype: `__proto__` is then a key like any other (an unknown one, so a 400) rather
  // than an assignment to the prototype that drops it silently.
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined || v === '') continue;
    if (arrays.has(k)) out[k] = (Array.isArray(v) ? v : [v]).filter((s) => s !== '');
    else if (Array.isArray(v)) errors.push({ path: `query.${k}`, message: `given ${v.length} times; send it once` });
    else out[k] = v;
  }
  return out;
}

const NO_PARAMETERS = z.strictObject({});

/** One error per field: the first issue zod reports for a path (later ones restate it). */
function issues(where: 'params' | 'query' | 'body', error: z.ZodError, seen: Set<string>): FieldError[] {
  const out: FieldError[] = [];
  for (const i of error.issues) {
    const path = [where, ...i.path.map(String)].join('.');
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ path, message: i.message });
  }
  return out;
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
    const seen = new Set<string>();
    const parse = (where: 'params' | 'query' | 'body', schema: z.ZodType | undefined, value: unknown): unknown => {
      if (!schema) return undefined;
      const r = schema.safeParse(value);
      if (r.success) return r.data;
      errors.push(...issues(where, r.error, seen));
      return undefined;
    };
    const params = parse('params', route.params, ctx.params ?? {});
    const raw = queryObject(ctx.query, arrays, errors);
    for (const e of errors) seen.add(e.path);
    const query = parse('query', querySchema, raw);
    let body: unknown;
    if (route.body) body = parse('body', route.body, await readJsonBody(ctx, bodyLimit));
    if (errors.length > 0) throw new ApiError('invalid_request', `${errors.length} invalid field${errors.length === 1 ? '' : 's'}; see errors.`, errors);
    ctx.state.input = { params, query, body };
    await next();
  };
}
