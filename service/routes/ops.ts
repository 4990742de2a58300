/**
 * Unmetered operational routes: health, readiness, status, the OpenAPI document and the
 * docs page (swagger-ui-dist served from node_modules: no CDN). /metrics has its own port
 * (metrics-server.ts).
 */
import type { Ledger } from '../ledger/types.ts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DataSource } from '../build/source.ts';
import { ApiError } from '../middleware/errors.ts';
import type { Ctx, Router } from '../middleware/router.ts';

const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const DOC_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Property Intelligence API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n`;
/** Everything the page loads comes from this origin; swagger-ui sets inline styles. */
const DOCS_CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'";

/** A section of the manifest's `quality`, or null when the build has none. */
function qualityOf(manifest: Record<string, unknown> | undefined, key: string): unknown {
  const q = manifest?.quality;
  return q && typeof q === 'object' && key in q ? (q as Record<string, unknown>)[key] : null;
}

export function addOpsRoutes(router: Router, deps: { data: DataSource; openapi: string; ledger: Pick<Ledger, 'health'> }): void {
  const json = (ctx: Ctx, body: unknown, status = 200) => {
    ctx.status = status;
    ctx.body = body;
  };
  router.add('GET', '/healthz', (ctx) => json(ctx, { status: 'ok' }));
  router.add('GET', '/readyz', (ctx) => {
    const build = deps.data.current();
    if (!build) throw new ApiError('data_unavailable', 'No published data build is loaded.');
    // Not ready while metered calls would all be refused: a load balancer sends them elsewhere.
    if (!deps.ledger.health().writable) throw new ApiError('ledger_unavailable', 'The credit ledger cannot record charges (disk full or read-only); it retries every second.');
    json(ctx, { status: 'ready', build_id: build.id });
  });
  router.add('GET', '/v1/status', (ctx) => {
    const build = deps.data.current();
    const sources = Array.isArray(build?.manifest.sources) ? (build.manifest.sources as Record<string, unknown>[]) : [];
    json(ctx, {
      status: build ? 'ok' : 'no_data',
      build_id: build?.id ?? null,
      build_created_at: typeof build?.manifest.created_at === 'string' ? build.manifest.created_at : null,
      sources: sources.map((s) => ({ name: s.name ?? null, as_of: s.as_of ?? null })),
      // Each source's latest complete month, where its windows end, and how it was decided (etl/pipeline/source-as-of.ts); {} for an older build.
      source_as_of: build?.manifest.source_as_of ?? {},
      // Which address base the build used and what it covers (docs/open-data.md); null for a
      // build published before the manifest said.
      address_source: qualityOf(build?.manifest, 'address_source'),
      sales_coverage: qualityOf(build?.manifest, 'sales_coverage'),
    });
  });
  router.add('GET', '/v1/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = deps.openapi;
  });
  router.add('GET', '/docs', (ctx) => {
    ctx.set('Content-Security-Policy', DOCS_CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = DOCS_HTML;
  });
  router.add('GET', '/docs/init.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = DOCS_INIT;
  });
  for (const [file, type] of Object.entries(DOC_ASSETS)) {
    const content = readFileSync(join(SWAGGER_DIR, file));
    router.add('GET', `/docs/${file}`, (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.type = type;
      ctx.body = content;
    });
  }
}
