import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { demoExamples, demoProperty, type DemoExample } from '../../scripts/demo-requests.ts';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { typedRequest } from '../support/client-call.ts';
import { publishSynthBuild } from '../support/published.ts';
import { tempDir } from '../support/tmp.ts';
import { call, postJson, startTestServer, type Reply, type TestServer } from './support.ts';

/**
 * The MCP server (service/mcp/) against a real server over a published synthetic build, through
 * the SDK's own Client: over Streamable HTTP at /mcp, and over stdio by spawning the real bin
 * (bin/pi-mcp.mjs) against the running server. Every tool answers its endpoint's demo example
 * with the REST answer, charged the REST cost once; credit exhaustion, bad arguments and an
 * unreachable API are tool errors an agent can read, never transport failures.
 */

/** The tools an agent sees, with the endpoint each stands for and its cost: written here, not derived, so a rename or a price change is seen. */
const TOOLS: readonly [name: string, endpoint: string, cost: number][] = [
  ['search_addresses', 'GET /v1/addresses/search', 1],
  ['property', 'GET /v1/properties/{uprn}', 1],
  ['property_sales', 'GET /v1/properties/{uprn}/sales', 1],
  ['property_epc', 'GET /v1/properties/{uprn}/epc', 1],
  ['postcode', 'GET /v1/postcodes/{postcode}', 1],
  ['sale_valuation', 'GET /v1/valuations/{uprn}/sale', 3],
  ['rental_valuation', 'GET /v1/valuations/{uprn}/rental', 3],
  ['hmo_valuation', 'GET /v1/valuations/{uprn}/hmo', 5],
  ['estimate_development_gdv', 'POST /v1/valuations/development-gdv', 5],
  ['sold_comparables', 'GET /v1/prices/comparables', 5],
  ['price_trends', 'GET /v1/prices/trends', 2],
  ['long_term_rents', 'GET /v1/rents/long-term', 2],
  ['hmo_rents', 'GET /v1/rents/hmo', 2],
  ['yields', 'GET /v1/yields', 2],
  ['estimate_short_term_let', 'POST /v1/valuations/str-estimate', 50],
  ['str_market', 'GET /v1/str/market', 3],
  ['str_listings', 'GET /v1/str/listings', 3],
  ['listings', 'GET /v1/listings', 1],
  ['sourcing_deals', 'GET /v1/sourcing/deals', 5],
  ['area', 'GET /v1/areas/{code}', 2],
  ['crime', 'GET /v1/crime', 2],
  ['schools', 'GET /v1/schools', 2],
  ['risks', 'GET /v1/risks/{uprn}', 8],
  ['flood_risk', 'GET /v1/flood-risk', 2],
  ['planning_constraints', 'GET /v1/planning/constraints', 2],
  ['hmo_licences', 'GET /v1/hmo/licences', 2],
  ['account', 'GET /v1/account', 0],
  ['account_usage', 'GET /v1/account/usage', 0],
];
const toolOf = (e: DemoExample) => TOOLS.find(([, endpoint]) => endpoint === `${e.route.method} /v1${e.route.path}`)![0];

const BIN = resolve(import.meta.dirname, '../../bin/pi-mcp.mjs');
const TRANSCRIPT = resolve(import.meta.dirname, '../../test-artifacts/mcp-transcript.md');
const MCP_DOC = resolve(import.meta.dirname, '../../docs/mcp.md');

let s: TestServer;
let examples: DemoExample[];
/** Enterprise (unlimited credits; `used_this_cycle` counts the charge) with a rate limit no test reaches. */
let big: { id: string; key: string };
const open: Client[] = [];
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  s = await startTestServer();
  await publishSynthBuild(s.dataDir);
  examples = demoExamples(await demoProperty(s.dataDir));
  big = await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 });
}, 180_000);

afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  for (const clean of cleanups) clean();
  await s?.stop();
});

async function httpClient(key: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', s.base), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  open.push(client);
  return client;
}

async function stdioClient(key: string, baseUrl = s.base): Promise<Client> {
  const client = new Client({ name: 'mcp-test-stdio', version: '1' });
  // Started from another directory, as a desktop agent would: the bin finds its own code.
  const { dir, cleanup } = tempDir('pi-mcp-cwd-');
  cleanups.push(cleanup);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN], cwd: dir, env: { PI_API_KEY: key, PI_BASE_URL: baseUrl }, stderr: 'pipe' }));
  open.push(client);
  return client;
}

/** The example as an agent would call the tool: its documented parameters, typed as the OpenAPI document types them, and the body's fields. */
function argumentsOf(e: DemoExample): Record<string, unknown> {
  const { path, query } = typedRequest(e.route.method, `/v1${e.path}`, e.body);
  return { ...path, ...query, ...(e.body as Record<string, unknown> | undefined) };
}

function rest(e: DemoExample, key: string): Promise<Reply> {
  return e.body ? postJson(s.base, `/v1${e.path}`, key, e.body) : call(s.base, 'GET', `/v1${e.path}`, { key });
}

/** A body with what names the request or the build left out ("build id / request ids aside"). */
function aside(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(aside);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'build_id' && k !== 'request_id').map(([k, x]) => [k, aside(x)]));
  return v;
}

const used = (id: string) => s.ledger.account(id, new Date(s.clock.ms))!.used_this_cycle;
const remaining = (id: string) => s.ledger.account(id, new Date(s.clock.ms))!.remaining;
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const callTool = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as CallToolResult;

function checkToolList(tools: Tool[]): void {
  expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map(([n]) => n).sort());
  for (const [name, endpoint, cost] of TOOLS) {
    const t = tools.find((x) => x.name === name)!;
    const route = V1_ROUTES.find((r) => `${r.method} /v1${r.path}` === endpoint)!;
    expect(route.cost, endpoint).toBe(cost);
    expect(t.description, name).toContain(`\`${endpoint}\``);
    expect(t.description, name).toContain(cost === 0 ? 'Cost: free' : `Cost: ${cost} credit${cost === 1 ? '' : 's'} per successful call`);
    expect(t.description, name).toContain('Coverage:');
    expect(t.inputSchema.type).toBe('object');
    expect(t.outputSchema?.type, name).toBe('object');
    // Every parameter and body field of the endpoint is an argument, and nothing else is.
    const keys = (schema: z.ZodType | undefined) => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);
    const expected = [...keys(route.params), ...keys(route.query), ...keys(route.body)].sort();
    expect(Object.keys(t.inputSchema.properties ?? {}).sort(), name).toEqual(expected);
    // The response's top-level fields are the output schema's.
    expect(Object.keys(t.outputSchema?.properties ?? {}).sort(), name).toEqual(keys(route.response).sort());
  }
}

/** Each example through the tool equals the REST answer to the same request, and costs its REST cost once. */
async function checkExamples(client: Client): Promise<void> {
  for (const e of examples) {
    const name = toolOf(e);
    const expected = await rest(e, big.key);
    expect(expected.status, `${e.path}: ${expected.text.slice(0, 200)}`).toBe(200);
    const before = used(big.id);
    const r = await callTool(client, name, argumentsOf(e));
    expect(r.isError ?? false, `${name}: ${textOf(r).slice(0, 300)}`).toBe(false);
    expect(used(big.id) - before, name).toBe(e.route.cost);
    expect(aside(r.structuredContent), name).toEqual(aside(expected.json));
    expect(JSON.parse((r.content[0] as { text: string }).text), name).toEqual(r.structuredContent);
    expect(textOf(r), name).toContain(`Charged ${e.route.cost === 0 ? 'free' : `${e.route.cost} credit`}`);
  }
}

describe('MCP over Streamable HTTP at /mcp', () => {
  it('is refused with the REST 401 without a good key, before any MCP work; only POST is served', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await call(s.base, 'POST', '/mcp', { headers, body: init });
    expect(none.status).toBe(401);
    expect(none.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(none.json).toMatchObject({ code: 'unauthorized', detail: 'Send your API key as "Authorization: Bearer <key>".' });
    const bad = await call(s.base, 'POST', '/mcp', { headers: { ...headers, authorization: 'Bearer pi_live_not_a_real_key_000000' }, body: init });
    expect(bad.status).toBe(401);
    expect(bad.json).toMatchObject({ code: 'unauthorized' });
    const get = await call(s.base, 'GET', '/mcp', { key: big.key });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    // The same request with the key is answered by the MCP server.
    const ok = await call(s.base, 'POST', '/mcp', { headers: { ...headers, authorization: `Bearer ${big.key}` }, body: init });
    expect(ok.status).toBe(200);
    expect(ok.json.result.serverInfo.name).toBe('property-intelligence');
  });

  it('lists every endpoint as a tool with its cost, input and output schemas', async () => {
    checkToolList((await (await httpClient(big.key)).listTools()).tools);
  });

  it('answers each endpoint\'s demo example with the REST answer, charging the REST cost once', async () => {
    await checkExamples(await httpClient(big.key));
  }, 120_000);

  it('bad arguments are a tool error with the 400\'s field list, and cost nothing', async () => {
    const client = await httpClient(big.key);
    const restReply = await call(s.base, 'GET', '/v1/addresses/search?q=a&limit=0', { key: big.key });
    expect(restReply.status).toBe(400);
    const before = used(big.id);
    const r = await callTool(client, 'search_addresses', { q: 'a', limit: 0 });
    expect(r.isError).toBe(true);
    const text = textOf(r);
    expect(text).toContain('HTTP 400 invalid_request');
    for (const f of restReply.json.errors as { path: string; message: string }[]) expect(text).toContain(`${f.path}): ${f.message}`);
    expect(restReply.json.errors.map((f: { path: string }) => f.path).sort()).toEqual(['query.limit', 'query.q']);
    // An argument the tool does not declare, and a missing path argument, are the endpoint's 400s too.
    expect(textOf(await callTool(client, 'search_addresses', { q: 'high street', colour: 'red' }))).toContain('- query: Unrecognized key: "colour"');
    const noUprn = await callTool(client, 'risks', {});
    expect(noUprn.isError).toBe(true);
    expect(textOf(noUprn)).toContain('(params.uprn)');
    expect(used(big.id)).toBe(before);
  });

  it('a body over the limit or not JSON is the REST 413 or 415; an unknown tool is a protocol error', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${big.key}` };
    const big64k = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(64 * 1024) } });
    expect((await call(s.base, 'POST', '/mcp', { headers, body: big64k })).json).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect((await call(s.base, 'POST', '/mcp', { headers: { ...headers, 'content-type': 'text/plain' }, body: '{}' })).json).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    await expect((await httpClient(big.key)).callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool no_such_tool/);
  });

  it('repeatable parameters are arrays of arguments, sent as the REST API repeats them', async () => {
    const outcode = String(argumentsOf(examples.find((e) => e.route.path === '/str/listings')!).outcode);
    const client = await httpClient(big.key);
    const expected = await call(s.base, 'GET', `/v1/str/listings?outcode=${outcode}&price_tier=Budget&price_tier=Luxury`, { key: big.key });
    expect(expected.status).toBe(200);
    const r = await callTool(client, 'str_listings', { outcode, price_tier: ['Budget', 'Luxury'] });
    expect(aside(r.structuredContent)).toEqual(aside(expected.json));
    // Each element is its own value: the second, not a tier, is the one the 400 names.
    const bad = await callTool(client, 'str_listings', { outcode, price_tier: ['Budget', 'Posh'] });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('- price_tier.1 (query.price_tier.1): ');
  });

  it('a rate-limited call is a tool error saying when to retry, and costs nothing', async () => {
    const acc = await s.account('starter'); // 4 requests per 10 s; the clock stands still
    const client = await httpClient(acc.key);
    for (let i = 0; i < 4; i++) expect((await callTool(client, 'search_addresses', { q: 'birch drive' })).isError ?? false).toBe(false);
    const r = await callTool(client, 'search_addresses', { q: 'birch drive' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/HTTP 429 rate_limited: .*\nRetry after 10 s\. Nothing was charged\./s);
    expect(remaining(acc.id)).toBe(2_000 - 4);
  });

  it('a place not covered is a tool error naming the 404', async () => {
    const r = await callTool(await httpClient(big.key), 'property', { uprn: '1' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('HTTP 404 not_found: No property with UPRN 1.');
  });

  it('a free key that runs out gets a tool error naming the 402 and the balance, not a transport failure', async () => {
    s.clock.tickMs = 3_000; // every request 3 s after the last: within the Free tier's 2 per second
    try {
      const free = await s.account('free');
      const client = await httpClient(free.key);
      const risks = examples.find((e) => e.route.path === '/risks/{uprn}')!;
      const fits = Math.floor(100 / 8); // the Free tier's 100 credits, 8 a call
      for (let i = 0; i < fits; i++) expect((await callTool(client, 'risks', argumentsOf(risks))).isError ?? false).toBe(false);
      expect(remaining(free.id)).toBe(100 - fits * 8);
      const r = await callTool(client, 'risks', argumentsOf(risks));
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/HTTP 402 credits_exhausted: This call costs 8 credits and 4 remain/);
      expect(textOf(r)).toContain('Credits remaining: 4.');
      expect(remaining(free.id)).toBe(4);
      // The session goes on: the free tool still answers.
      const me = await callTool(client, 'account', {});
      expect(me.structuredContent).toMatchObject({ remaining: 4, used_this_cycle: 96 });
    } finally {
      s.clock.tickMs = 0;
    }
  });

  it('50 concurrent tool calls against credits for 37: exactly 37 succeed, the rest 402, the ledger agrees', async () => {
    s.clock.tickMs = 3_000; // within the Starter rate limit (4 per 10 s): this is about credits only
    try {
      const acc = await s.account('starter');
      const str = examples.find((e) => e.route.path === '/valuations/str-estimate')!;
      for (let i = 0; i < 3; i++) expect((await rest(str, acc.key)).status).toBe(200); // 2,000 - 150 = 1,850 = 37 × 50
      const client = await httpClient(acc.key);
      const results = await Promise.all(Array.from({ length: 50 }, () => callTool(client, 'estimate_short_term_let', argumentsOf(str))));
      const ok = results.filter((r) => !r.isError);
      const refused = results.filter((r) => r.isError);
      expect(ok.length).toBe(37);
      expect(refused.length).toBe(13);
      for (const r of refused) expect(textOf(r)).toContain('HTTP 402 credits_exhausted');
      expect(s.ledger.account(acc.id, new Date(s.clock.ms))).toMatchObject({ remaining: 0, used_this_cycle: 2_000 });
      const usage = (await call(s.base, 'GET', '/v1/account/usage', { key: acc.key })).json;
      expect(usage).toMatchObject({ total_calls: 40, total_credits: 2_000 });
    } finally {
      s.clock.tickMs = 0;
    }
  }, 60_000);

  it('serves the vocabulary, the data dictionary and the build\'s as-of dates as resources', async () => {
    const client = await httpClient(big.key);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['pi://build/status', 'pi://docs/data-dictionary', 'pi://docs/vocabulary']);
    const read = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
    const vocabulary = await read('pi://docs/vocabulary');
    for (const h of ['## Requests', '### One vocabulary', '## Scotland: what its registers allow', '## Wales and Scotland: flood and planning']) expect(vocabulary).toContain(h);
    expect(vocabulary).not.toContain('## Limits');
    expect(await read('pi://docs/data-dictionary')).toBe(readFileSync(resolve(import.meta.dirname, '../../docs/data-dictionary.md'), 'utf8'));
    const status = JSON.parse(await read('pi://build/status'));
    expect(status).toEqual((await call(s.base, 'GET', '/v1/status')).json);
    expect(status.build_id).toBeTruthy();
  });

  it('an agent session (search an address, value it, check its risks) is written to test-artifacts/', async () => {
    const client = await httpClient(big.key);
    const lines: string[] = [];
    const step = async (name: string, args: Record<string, unknown>, failing = false) => {
      const r = await callTool(client, name, args);
      expect(r.isError ?? false, textOf(r)).toBe(failing);
      const json = JSON.stringify(r.structuredContent);
      lines.push(`→ tools/call ${name} ${JSON.stringify(args)}`);
      if (failing) lines.push(`← isError: ${textOf(r).replaceAll('\n', '\n  ')}`, '');
      else lines.push(`← ${json.length > 600 ? `${json.slice(0, 600)}…` : json}`, `  ${(r.content[1] as { text: string }).text}`, '');
      return r.structuredContent as Record<string, any>;
    };
    const search = argumentsOf(examples.find((e) => e.route.path === '/addresses/search')!);
    // An agent's first try is often too short: the 400's field list tells it what to fix.
    await step('search_addresses', { q: String(search.q).slice(0, 1) }, true);
    const found = await step('search_addresses', { ...search, limit: 3 });
    const uprn = found.results[0].uprn as number;
    const value = await step('sale_valuation', { uprn: String(uprn) });
    const risk = await step('risks', { uprn: String(uprn) });
    expect(value.uprn).toBe(String(uprn));
    expect(risk.uprn).toBe(uprn);
    mkdirSync(resolve(TRANSCRIPT, '..'), { recursive: true });
    writeFileSync(TRANSCRIPT, `${lines.join('\n')}\n`);
  });
});

describe('MCP over stdio (the pi-mcp bin against the running API)', () => {
  it('lists the same tools and answers each example with the REST answer, charging once', async () => {
    const client = await stdioClient(big.key);
    checkToolList((await client.listTools()).tools);
    await checkExamples(client);
  }, 180_000);

  it('a 402 and a 400 are tool errors; an unreachable API is a tool error, not a transport failure', async () => {
    const free = await s.account('free');
    s.clock.tickMs = 3_000;
    try {
      const risks = examples.find((e) => e.route.path === '/risks/{uprn}')!;
      for (let i = 0; i < 12; i++) expect((await rest(risks, free.key)).status).toBe(200); // 100 - 12 × 8 = 4
      const client = await stdioClient(free.key);
      const r = await callTool(client, 'risks', argumentsOf(risks));
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/HTTP 402 credits_exhausted: This call costs 8 credits and 4 remain/);
      expect(textOf(r)).toContain('Credits remaining: 4.');
      const bad = await callTool(client, 'yields', { outcode: 'not an outcode' });
      expect(textOf(bad)).toContain('outcode (query.outcode)');
      expect(remaining(free.id)).toBe(4);
    } finally {
      s.clock.tickMs = 0;
    }
    // Nothing listens on the port of a stopped server.
    const gone = await startTestServer();
    const port = gone.port;
    await gone.stop();
    const orphan = await stdioClient(big.key, `http://127.0.0.1:${port}`);
    const r = await callTool(orphan, 'account', {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('could not reach the API');
  }, 60_000);

  it('a server without a published build: a data tool is a tool error with the 503 and when to retry', async () => {
    const empty = await startTestServer();
    try {
      const key = (await empty.account('pro')).key;
      const r = await callTool(await stdioClient(key, empty.base), 'property', { uprn: '200000007' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/HTTP 503 data_unavailable: No published data build is loaded yet.*\nRetry after \d+ s\. Nothing was charged\./s);
    } finally {
      await empty.stop();
    }
  }, 60_000);

  it('refuses to start without PI_API_KEY, or with a PI_BASE_URL that is more than the API\'s origin, saying why', () => {
    const run = (env: Record<string, string>) => spawnSync(process.execPath, [BIN], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', input: '' });
    const noKey = run({ PI_BASE_URL: s.base });
    expect(noKey.status).toBe(2);
    expect(noKey.stderr).toContain('pi-mcp: set PI_API_KEY to your API key');
    const withPath = run({ PI_API_KEY: big.key, PI_BASE_URL: `${s.base}/v1` });
    expect(withPath.status).toBe(2);
    expect(withPath.stderr).toContain(`PI_BASE_URL must be the API's scheme, host and port (http://localhost:8080), not "${s.base}/v1"`);
  });
});

describe('docs/mcp.md', () => {
  it('lists every tool with its endpoint and cost, as served', () => {
    const rows = [...readFileSync(MCP_DOC, 'utf8').matchAll(/^\| `(\w+)` \| `([A-Z]+ [^`]+)` \| (free|\d+) \|/gm)].map((m) => [m[1], m[2], m[3] === 'free' ? 0 : Number(m[3])]);
    expect(rows).toEqual(TOOLS.map((t) => [...t]));
  });
});
