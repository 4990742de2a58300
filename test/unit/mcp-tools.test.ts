import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '../../service/routes/types.ts';
import { restRequest, toolFor, toolName } from '../../service/mcp/tools.ts';
import { markdownSections } from '../../service/mcp/resources.ts';

/** A route declaration with every part, for the generator (never served). */
const route = defineRoute({
  method: 'POST',
  path: '/things/{id}/price',
  operationId: 'estimateThingPrice',
  summary: 'Price of a thing',
  description: 'England only.',
  tag: 'Test',
  cost: 7,
  params: z.strictObject({ id: z.string() }),
  query: z.strictObject({ tag: z.array(z.string()).optional(), near: z.number().optional() }),
  body: z.strictObject({ units: z.array(z.object({ n: z.number().int() })), note: z.string().optional() }),
  response: z.object({ price: z.number(), id: z.string() }).meta({ id: 'ThingPrice' }),
  needsBuild: false,
  handler: () => ({ price: 1, id: 'x' }),
});

describe('MCP tool declarations', () => {
  it('names: the operationId in snake case, without a leading get', () => {
    expect(['getSaleValuation', 'searchAddresses', 'getAccountUsage', 'getAccount', 'estimateShortTermLet', 'getter'].map(toolName)).toEqual([
      'sale_valuation', 'search_addresses', 'account_usage', 'account', 'estimate_short_term_let', 'getter',
    ]);
  });

  it('one flat input object of the path, query and body fields; the response as an object root', () => {
    const tool = toolFor(route);
    expect(tool.name).toBe('estimate_thing_price');
    expect(tool.description).toContain('Price of a thing.\n\nEngland only.');
    expect(tool.description).toContain('Cost: 7 credits per successful call, charged to your API key exactly as `POST /v1/things/{id}/price`');
    expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false, required: ['id', 'units'] });
    expect(Object.keys(tool.inputSchema.properties as object).sort()).toEqual(['id', 'near', 'note', 'tag', 'units']);
    expect(tool.inputSchema).not.toHaveProperty('$schema');
    // The named response schema ($ref at the root) is inlined: MCP wants type "object" there.
    expect(tool.outputSchema).toMatchObject({ type: 'object', required: ['price', 'id'] });
    expect(tool.outputSchema).not.toHaveProperty('$ref');
  });

  it('a name in two parts cannot be one argument', () => {
    const clash = { ...route, query: z.strictObject({ id: z.string() }) };
    expect(() => toolFor(clash)).toThrow('estimateThingPrice: argument id is in both params and query');
  });

  it('places arguments: path (encoded), repeated query values, body fields; undeclared ones in the query for the endpoint to refuse', () => {
    const tool = toolFor(route);
    expect(restRequest(tool, { id: 'a/b c', tag: ['x', 'y z'], near: 2.5, units: [{ n: 1 }], note: 'hi', extra: true, skipped: null })).toEqual({
      method: 'POST',
      path: '/v1/things/a%2Fb%20c/price?tag=x&tag=y+z&near=2.5&extra=true',
      body: { units: [{ n: 1 }], note: 'hi' },
    });
    // A missing path argument is a blank segment, which the endpoint's validation names (not a 404 for "{id}").
    expect(restRequest(tool, { units: [] })).toEqual({ method: 'POST', path: '/v1/things/%20/price', body: { units: [] } });
  });

  it('a GET has no body', () => {
    const get = toolFor({ ...route, method: 'GET', body: undefined });
    expect(restRequest(get, { id: '1' })).toEqual({ method: 'GET', path: '/v1/things/1/price' });
  });
});

describe('markdownSections', () => {
  it('keeps the sections whose heading matches, each up to the next heading', () => {
    const md = '# T\nintro\n## A one\na\n### A sub\nsub\n## B\nb\n## A two\nlast\n';
    expect(markdownSections(md, /^## A/)).toBe('## A one\na\n\n## A two\nlast');
  });
});

describe('a route whose answer is not an object', () => {
  it('is a tool without an output schema (MCP wants an object root)', () => {
    const tool = toolFor({ ...route, response: z.array(z.number()) });
    expect(tool).not.toHaveProperty('outputSchema');
  });
});
