/**
 * One MCP tool per endpoint, generated from the route declarations: the name from the
 * operationId, the description from the summary, description and cost, the input schema
 * from the route's params, query and body schemas (one flat object of arguments), the output
 * schema from its response schema. A tool call becomes the REST request it stands for.
 */
import type { RouteDef } from '../routes/types.ts';
import { toJsonSchema, type Json } from '../json-schema.ts';

type Part = 'params' | 'query' | 'body';
const PARTS: readonly Part[] = ['params', 'query', 'body'];

export interface ToolDef {
  name: string;
  description: string;
  inputSchema: Json & { type: 'object' };
  /** Absent only for a route whose answer is not an object. */
  outputSchema?: Json & { type: 'object' };
  route: RouteDef;
  /** Which request part each argument belongs to. */
  argumentPart: ReadonlyMap<string, Part>;
}

/** `getSaleValuation` → `sale_valuation`, `searchAddresses` → `search_addresses`: the verb `get` says nothing to an agent. */
export function toolName(operationId: string): string {
  return operationId.replace(/^get(?=[A-Z])/, '').replace(/[A-Z]/g, (c, i: number) => `${i === 0 ? '' : '_'}${c.toLowerCase()}`);
}

export const costText = (cost: number): string => (cost === 0 ? 'free' : `${cost} credit${cost === 1 ? '' : 's'}`);

function description(route: RouteDef): string {
  const cost = route.cost === 0
    ? 'Cost: free (also when the credits have run out).'
    : `Cost: ${costText(route.cost)} per successful call, charged to your API key exactly as \`${route.method} /v1${route.path}\` (an error costs nothing).`;
  const coverage = 'Coverage: the sources of the current data build (read the `pi://build/status` resource for their as-of dates, and `pi://docs/vocabulary` for what England-only layers mean in Wales and Scotland).';
  return [`${route.summary}.`, route.description, `Returns the JSON body of \`${route.method} /v1${route.path}\`.`, coverage, cost].filter(Boolean).join('\n\n');
}

/**
 * A response schema whose root is a named `$ref` becomes that definition itself: MCP wants
 * `type: "object"` at the root. Every endpoint answers an object; a route that does not (a
 * test's fixture) is served without an output schema, its answer as text only.
 */
function objectRoot(schema: Json & { $defs?: Json }): (Json & { type: 'object' }) | undefined {
  const ref = typeof schema.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  const root = ref ? { ...(schema.$defs?.[ref] as Json), $defs: schema.$defs } : schema;
  return root.type === 'object' ? (root as Json & { type: 'object' }) : undefined;
}

export function toolFor(route: RouteDef): ToolDef {
  const properties: Json = {};
  const required: string[] = [];
  const $defs: Json = {};
  const argumentPart = new Map<string, Part>();
  for (const part of PARTS) {
    const schema = route[part];
    if (!schema) continue;
    const js = toJsonSchema(schema, 'input') as Json & { properties?: Json; required?: string[]; $defs?: Json };
    Object.assign($defs, js.$defs);
    for (const [name, prop] of Object.entries(js.properties ?? {})) {
      // One flat argument object: a name used by two parts would be ambiguous.
      if (argumentPart.has(name)) throw new Error(`${route.operationId}: argument ${name} is in both ${argumentPart.get(name)} and ${part}`);
      argumentPart.set(name, part);
      properties[name] = prop;
    }
    required.push(...(js.required ?? []));
  }
  const inputSchema = {
    type: 'object' as const,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(Object.keys($defs).length > 0 ? { $defs } : {}),
  };
  const outputSchema = objectRoot(toJsonSchema(route.response, 'output'));
  return { name: toolName(route.operationId), description: description(route), inputSchema, ...(outputSchema ? { outputSchema } : {}), route, argumentPart };
}

export interface RestRequest {
  method: 'GET' | 'POST';
  /** From /v1 on, with the query string. */
  path: string;
  body?: Json;
}

const queryValue = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/**
 * The REST request a call stands for. Arguments are placed, not checked: the endpoint
 * validates them, so a bad argument gets exactly the REST 400 and its field list. An
 * argument the tool does not declare goes in the query string, where the endpoint's strict
 * query schema names it.
 */
export function restRequest(tool: ToolDef, args: Json): RestRequest {
  const { route } = tool;
  const query = new URLSearchParams();
  const body: Json = {};
  let path = route.path;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    const part = tool.argumentPart.get(name) ?? 'query';
    if (part === 'params') path = path.replace(`{${name}}`, encodeURIComponent(queryValue(value)));
    else if (part === 'body') body[name] = value;
    else for (const v of Array.isArray(value) ? value : [value]) query.append(name, queryValue(v));
  }
  // A missing path argument stays visible to the endpoint as its own 400, not a 404 for `{uprn}`.
  path = path.replace(/\{(\w+)\}/g, '%20');
  const qs = query.toString();
  return { method: route.method, path: `/v1${path}${qs ? `?${qs}` : ''}`, ...(route.method === 'POST' ? { body } : {}) };
}
