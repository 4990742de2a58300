/**
 * `/metrics` on its own listener (METRICS_PORT, loopback by default): the API port does not
 * serve it, so a server bound to 0.0.0.0 never shows its internals to the internet. A bare
 * Node handler, no Koa chain: one path, GET only, text answers.
 */
import { createServer, type Server } from 'node:http';
import type { Metrics } from './metrics.ts';

export function createMetricsServer(metrics: Metrics): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Only /metrics is served here.\n');
      return;
    }
    if (req.method !== 'GET') {
      res.writeHead(405, { Allow: 'GET', 'Content-Type': 'text/plain; charset=utf-8' }).end('Use GET.\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' }).end(text),
      () => res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics could not be collected.\n'),
    );
  });
}
