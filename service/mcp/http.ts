/**
 * MCP over Streamable HTTP at `POST /mcp` on the service itself. The caller authenticates
 * with the API key of the REST API (`Authorization: Bearer`): a missing or bad key is the
 * REST 401, before any MCP work. Stateless: each POST gets its own server and transport
 * (JSON responses, no session to keep between replicas). A tool call is then made as the
 * REST request it stands for, to this same server (the address the caller's connection
 * arrived on, never a Host header) with the caller's key: the endpoint's own rate limit,
 * validation and credit ledger meter it, exactly once.
 *
 * `/mcp` itself is not rate limited: its tool calls are, as REST calls, and counting the
 * envelope too would halve an agent's rate.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { readJsonBody } from '../middleware/body.ts';
import type { Middleware, Router } from '../middleware/router.ts';
import type { RouteDef } from '../routes/types.ts';
import { httpCaller } from './rest.ts';
import { createMcpServer, toolsOf } from './server.ts';
import type { ToolDef } from './tools.ts';

export const MCP_PATH = '/mcp';

/** This server as its own client sees it: the local end of the caller's connection. */
function selfBase(req: IncomingMessage): string {
  const { localAddress, localPort } = req.socket;
  if (!localAddress || !localPort) throw new Error('the /mcp connection has no local address');
  return `http://${localAddress.includes(':') ? `[${localAddress}]` : localAddress}:${localPort}`;
}

async function serve(req: IncomingMessage, res: ServerResponse, body: unknown, key: string, tools: readonly ToolDef[]): Promise<void> {
  const server = createMcpServer(httpCaller(selfBase(req), key), tools);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const finished = new Promise<void>((resolve) => res.once('close', resolve));
  await server.connect(transport);
  try {
    await transport.handleRequest(req, res, body);
    await finished;
  } finally {
    await server.close();
  }
}

/** Adds `POST /mcp` (other methods: 405) to the app's router, behind the REST API's own `authenticate`. */
export function addMcpRoute(router: Router, authenticate: Middleware, bodyLimit: number, routes: readonly RouteDef[]): void {
  const tools = toolsOf(routes);
  router.add('POST', MCP_PATH, authenticate, async (ctx) => {
    const body = await readJsonBody(ctx, bodyLimit);
    // authenticate() has accepted exactly this header; its key is the tool calls' key.
    const key = ctx.get('authorization').slice('Bearer '.length);
    ctx.respond = false;
    await serve(ctx.req, ctx.res, body, key, tools);
  });
}
