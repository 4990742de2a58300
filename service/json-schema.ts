/**
 * zod → JSON Schema 2020-12, as the OpenAPI document (openapi.ts) and the MCP tool
 * declarations (mcp/tools.ts) both publish it.
 */
import { z } from 'zod';

export type Json = Record<string, unknown>;

const SAFE = Number.MAX_SAFE_INTEGER;
/**
 * zod writes every `.int()` with the safe-integer bounds (±2^53-1); they say nothing to a
 * reader and renderers take them as sample values ("status": -9007199254740991).
 */
const dropSafeBounds = (_k: string, v: unknown): unknown => {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = { ...(v as Json) };
    if (o.minimum === -SAFE) delete o.minimum;
    if (o.maximum === SAFE) delete o.maximum;
    return o;
  }
  return v;
};

/**
 * zod drops `default` from the input side of a schema that transforms, and the query
 * numbers do (their strict decimal grammar, schemas/api/common.ts, is a preprocess). The
 * default of a query number is the value the parameter takes when absent, as written, so it
 * is shown.
 */
const keepQueryDefault =
  (io: 'input' | 'output') =>
  (ctx: { zodSchema: unknown; jsonSchema: Json }): void => {
    if (io !== 'input' || !(ctx.zodSchema instanceof z.ZodDefault) || ctx.jsonSchema.default !== undefined) return;
    const value: unknown = ctx.zodSchema.def.defaultValue;
    if (typeof value !== 'number') return;
    // First, where zod puts a default it keeps.
    const rest = { ...ctx.jsonSchema };
    for (const k of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[k];
    Object.assign(ctx.jsonSchema, { default: value }, rest);
  };

/** The schema of a request part (`input`: what a caller sends) or of a response (`output`), without `$schema`. */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json & { $defs?: Json } {
  const raw = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', override: keepQueryDefault(io) });
  const { $schema: _s, ...rest } = JSON.parse(JSON.stringify(raw), dropSafeBounds) as Json;
  return rest;
}
