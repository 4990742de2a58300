/**
 * The MCP server: the tools of every endpoint (tools.ts), each call made as its REST
 * request through `rest` (rest.ts) and answered as results.ts says, and the resources
 * (resources.ts). Transport-free: http.ts serves it at /mcp, stdio.ts to a desktop agent.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { RouteDef } from '../routes/types.ts';
import { V1_ROUTES } from '../routes/v1/index.ts';
import type { RestCaller } from './rest.ts';
import { RESOURCES } from './resources.ts';
import { toolError, toolResult } from './results.ts';
import { restRequest, toolFor, type ToolDef } from './tools.ts';

const INSTRUCTIONS =
  'UK property data, metered in credits per successful call (each tool states its cost; errors cost nothing). ' +
  'Start with search_addresses to turn an address into a UPRN, then use it with property, the valuations and risks. ' +
  'account shows the credits left (free). Read pi://docs/vocabulary for how places are given and pi://build/status for the data\'s as-of dates.';

/** The tools of `routes`, declared once per process (the schemas do not change). */
export function toolsOf(routes: readonly RouteDef[] = V1_ROUTES): ToolDef[] {
  return routes.map(toolFor);
}

export function createMcpServer(rest: RestCaller, tools: readonly ToolDef[]): Server {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const server = new Server({ name: 'property-intelligence', version: '1.1' }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema, outputSchema }) => ({ name, description, inputSchema, outputSchema })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const tool = byName.get(params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${params.name}; tools/list names them.`);
    const req = restRequest(tool, params.arguments ?? {});
    try {
      return toolResult(tool, req, await rest(req));
    } catch (err) {
      // The API could not be reached (stdio against a stopped server): the agent is told, the session lives on.
      return toolError(`${req.method} ${req.path} could not reach the API: ${(err as Error).message}. If the request got through before the failure, account_usage shows whether it was charged.`);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: RESOURCES.map(({ read: _read, ...r }) => r),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async ({ params }) => {
    const res = RESOURCES.find((r) => r.uri === params.uri);
    if (!res) throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${params.uri}; resources/list names them.`);
    return { contents: [{ uri: res.uri, mimeType: res.mimeType, text: await res.read(rest) }] };
  });

  return server;
}
