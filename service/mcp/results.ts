/**
 * A REST answer as an MCP tool result: a 2xx becomes structured content (the JSON body,
 * checked against the route's response schema) with a text rendering; anything else a
 * tool error (`isError: true`, not a protocol error) whose text says what happened and
 * what to do: what ran out and the balance, when to retry, why a place is not covered,
 * which arguments were wrong.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Problem } from '../../schemas/api/problem.ts';
import type { Json } from '../json-schema.ts';
import type { RestReply } from './rest.ts';
import { costText, type RestRequest, type ToolDef } from './tools.ts';

const text = (t: string) => ({ type: 'text' as const, text: t });

/** The metering line beside a result: what the call cost, what remains, which build answered. */
function meteringLine(reply: RestReply): string {
  const h = reply.headers;
  const parts = [`Charged ${costText(Number(h['x-credits-cost'] ?? 0))}`];
  if (h['x-credits-remaining']) parts.push(`${h['x-credits-remaining']} credits remaining`);
  if (h['x-build-id']) parts.push(`data build ${h['x-build-id']}`);
  if (h['x-limit-capped']) parts.push(h['x-limit-capped']);
  return `${parts.join('; ')}.`;
}

/** A REST problem path (`query.limit`) with the tool argument an agent passed (`limit (query.limit)`); a whole part (`query`) as it is. */
function fieldName(path: string): string {
  const arg = path.replace(/^(params|query|body)\.?/, '');
  return arg ? `${arg} (${path})` : path;
}

/** What an agent can act on, per status. */
function advice(reply: RestReply, problem: Partial<Problem>): string[] {
  const h = reply.headers;
  const lines: string[] = [];
  if (problem.errors?.length) {
    lines.push('Invalid arguments:', ...problem.errors.map((e) => `- ${fieldName(e.path)}: ${e.message}`));
  }
  if (reply.status === 402) lines.push(`Credits remaining: ${h['x-credits-remaining'] ?? 'unknown'}. Nothing was charged; the free tools (account, account_usage) still work.`);
  if (h['retry-after']) lines.push(`Retry after ${h['retry-after']} s. Nothing was charged.`);
  if (reply.status === 404) lines.push('Nothing was charged. Check the identifier (a UPRN from search_addresses) or try a wider place (postcode sector or outcode).');
  return lines;
}

export function toolError(message: string): CallToolResult {
  return { isError: true, content: [text(message)] };
}

export function toolResult(tool: ToolDef, req: RestRequest, reply: RestReply): CallToolResult {
  const call = `${req.method} ${req.path}`;
  if (reply.status >= 200 && reply.status < 300) {
    const checked = tool.route.response.safeParse(reply.json);
    if (!checked.success) return toolError(`${call} answered ${reply.status} with a body that does not match the ${tool.name} output schema: ${checked.error.issues[0]?.message}.`);
    const content = [text(JSON.stringify(reply.json)), text(meteringLine(reply))];
    return tool.outputSchema ? { structuredContent: reply.json as Json, content } : { content };
  }
  const problem = (reply.json ?? {}) as Partial<Problem>;
  const head = problem.code
    ? `${call} failed: HTTP ${reply.status} ${problem.code}: ${problem.detail ?? problem.title ?? ''}`
    : `${call} failed: HTTP ${reply.status}: ${reply.text.slice(0, 300)}`;
  const id = problem.request_id ? [`Request id: ${problem.request_id}.`] : [];
  return toolError([head, ...advice(reply, problem), ...id].join('\n'));
}
