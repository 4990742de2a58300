/**
 * MCP over stdio for a desktop agent: the same tools and resources, each call made to a
 * running API at PI_BASE_URL with the key in PI_API_KEY (so it is metered there, as REST).
 *
 *   PI_API_KEY=pi_live_… PI_BASE_URL=http://localhost:8080 npm run mcp      (or the pi-mcp bin)
 *
 * stdout carries the protocol: anything else goes to stderr.
 */
import { resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { httpCaller } from './rest.ts';
import { createMcpServer, toolsOf } from './server.ts';

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const key = env.PI_API_KEY;
  const base = env.PI_BASE_URL ?? 'http://localhost:8080';
  if (!key) {
    process.stderr.write('pi-mcp: set PI_API_KEY to your API key (and PI_BASE_URL to the API, default http://localhost:8080).\n');
    process.exit(2);
  }
  if (!/^https?:\/\/[^/]+\/?$/.test(base)) {
    process.stderr.write(`pi-mcp: PI_BASE_URL must be the API's scheme, host and port (http://localhost:8080), not ${JSON.stringify(base)}.\n`);
    process.exit(2);
  }
  const server = createMcpServer(httpCaller(base, key), toolsOf());
  await server.connect(new StdioServerTransport());
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  main().catch((err: unknown) => {
    process.stderr.write(`pi-mcp: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
