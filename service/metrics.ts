import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LedgerHealth } from './ledger/types.ts';

/**
 * Prometheus metrics for one app. Each app owns its registry (never the global default),
 * so several apps can live in one process (tests, benchmarks).
 */
export interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  latency: Histogram<'method' | 'route'>;
  creditsSpent: Counter<'route'>;
  rateLimited: Counter<'route'>;
  /** Charges whose client closed the connection while the charge was being committed (docs/ledger.md). */
  chargedClientGone: Counter<'route'>;
  authThrottled: Counter;
}

/**
 * `storeOpen`: whether the serving build's DuckDB store is open (undefined while it has not
 * opened); released once the build is warm (ADR 0015), reopened by a resource opened later.
 */
export function createMetrics(currentBuildId: () => string | undefined, ledgerHealth?: () => LedgerHealth, storeOpen?: () => boolean | undefined): Metrics {
  const registry = new Registry();
  const requests = new Counter({ name: 'http_requests_total', help: 'Requests by route template, method and status', labelNames: ['method', 'route', 'status'] as const, registers: [registry] });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Request latency by route template',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const creditsSpent = new Counter({ name: 'credits_spent_total', help: 'Credits committed, by route', labelNames: ['route'] as const, registers: [registry] });
  const rateLimited = new Counter({ name: 'rate_limited_total', help: 'Requests refused with 429, by route', labelNames: ['route'] as const, registers: [registry] });
  const chargedClientGone = new Counter({
    name: 'credits_charged_client_gone_total',
    help: 'Metered calls charged although the client closed the connection while the charge was being committed (the window docs/ledger.md states)',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const authThrottled = new Counter({
    name: 'auth_throttled_total',
    help: 'Requests refused with 429 before their key was checked: their address had too many failed authentications',
    registers: [registry],
  });
  new Gauge({
    name: 'data_build_info',
    help: 'The published build being served (value 1), labelled by build id; absent when none',
    labelNames: ['build_id'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const id = currentBuildId();
      if (id !== undefined) this.set({ build_id: id }, 1);
    },
  });
  if (storeOpen) {
    new Gauge({
      name: 'data_store_open',
      help: "1 while the serving build's DuckDB store is open, 0 once it is released after the warm-up (ADR 0015); absent before it opens",
      registers: [registry],
      collect() {
        this.reset();
        const open = storeOpen();
        if (open !== undefined) this.set(open ? 1 : 0);
      },
    });
  }
  if (ledgerHealth) {
    new Gauge({
      name: 'ledger_writable',
      help: '1 while the credit ledger records charges; 0 while its writes fail (metered calls answer 503 ledger_unavailable)',
      registers: [registry],
      collect() {
        this.set(ledgerHealth().writable ? 1 : 0);
      },
    });
    new Gauge({
      name: 'ledger_write_failures',
      help: 'Times the ledger\'s writes started failing since the process started (disk full, read-only, I/O error)',
      registers: [registry],
      collect() {
        this.set(ledgerHealth().write_failures);
      },
    });
  }
  // The process's own: resident memory, CPU, event-loop lag, GC, heap (for ops alerts).
  collectDefaultMetrics({ register: registry });
  return { registry, requests, latency, creditsSpent, rateLimited, chargedClientGone, authThrottled };
}
