/**
 * How a tool call reaches the API: as the REST request it stands for, over HTTP, with the
 * caller's own API key, so it passes exactly the authentication, rate limit, validation and
 * credit ledger of that request (charged once, by the endpoint, at its cost).
 */
import type { Json } from '../json-schema.ts';
import type { RestRequest } from './tools.ts';

export interface RestReply {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The parsed JSON body (undefined when it is not JSON). */
  json: unknown;
  text: string;
}

export type RestCaller = (req: RestRequest) => Promise<RestReply>;

/** Calls the API at `baseUrl` (scheme, host and port: `http://127.0.0.1:8080`) with `key`; no key for the unmetered routes. */
export function httpCaller(baseUrl: string, key: string | undefined): RestCaller {
  const base = baseUrl.replace(/\/+$/, '');
  return async ({ method, path, body }) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text) as Json;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: Object.fromEntries(res.headers), json, text };
  };
}
