#!/usr/bin/env node
// The stdio MCP server (service/mcp/stdio.ts), runnable from any working directory: tsx is
// resolved from this package, not from the caller's.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../service/mcp/stdio.ts');
await main();
