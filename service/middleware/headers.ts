import type { WindowDecision } from '../domain/rate-window.ts';

/** Enterprise (null remaining) is shown as `unlimited`. */
export const remainingHeader = (remaining: number | null): string => (remaining === null ? 'unlimited' : String(remaining));

/**
 * RateLimit-Policy and RateLimit in the syntax of draft-ietf-httpapi-ratelimit-headers
 * (structured-field lists): `"default";q=<limit>;w=<window s>` and
 * `"default";r=<remaining>;t=<seconds until the oldest counted request leaves the window>`.
 */
export function rateLimitHeaders(d: WindowDecision): Record<string, string> {
  const w = Math.ceil(d.windowMs / 1000);
  const t = Math.ceil(d.resetMs / 1000);
  const h: Record<string, string> = {
    'RateLimit-Policy': `"default";q=${d.limit};w=${w}`,
    RateLimit: `"default";r=${d.remaining};t=${t}`,
  };
  if (!d.allowed) h['Retry-After'] = String(Math.max(1, Math.ceil(d.retryAfterMs / 1000)));
  return h;
}
