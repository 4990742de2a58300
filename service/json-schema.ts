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

/** The schema of a request part (`input`: what a caller sends) or of a response (`output`), without `$schema`. */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json & { $defs?: Json } {
  const raw = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  const { $schema: _s, ...rest } = JSON.parse(JSON.stringify(raw), dropSafeBounds) as Json;
  return rest;
}
