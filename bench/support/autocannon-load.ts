/**
 * The flat-out load generator of the single-endpoint benches (risks, search, valuation-sale,
 * valuation-other): autocannon in its own process, so it does not share the server's thread.
 * `runAutocannon` spawns this file with `--load-child <spec.json>` and reads its one JSON line.
 * (The whole-system bench has its own generator, mixed-load.ts: autocannon reports one latency
 * distribution per instance, not one per endpoint of a mix.)
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export interface AutocannonSpec {
  url: string;
  /** Sent in turn; with `bodies`, paths[0] is sent with each body in turn. */
  paths: string[];
  method?: 'GET' | 'POST';
  bodies?: string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  /** autocannon's overallRate: the closed loop capped at this many requests a second. */
  rate?: number;
}

/** The client-side figures of one load. */
export interface AutocannonResult {
  rps: number;
  total: number;
  ok: number;
  non2xx: number;
  errors: number;
  client_p50_ms: number;
  client_p99_ms: number;
}

type Autocannon = (opts: object) => Promise<{ requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; '2xx': number }>;

async function loadChild(specPath: string): Promise<void> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const spec = JSON.parse(readFileSync(specPath, 'utf8')) as AutocannonSpec;
  let next = 0;
  const r = await autocannon({
    url: spec.url, connections: spec.connections, duration: spec.seconds, headers: spec.headers,
    ...(spec.rate ? { overallRate: spec.rate } : {}),
    requests: [{
      method: spec.method ?? 'GET',
      setupRequest: (req: object) => {
        const i = next++;
        return spec.bodies ? { ...req, path: spec.paths[0], body: spec.bodies[i % spec.bodies.length] } : { ...req, path: spec.paths[i % spec.paths.length] };
      },
    }],
  });
  const result: AutocannonResult = { rps: Math.round(r.requests.average), total: r.requests.total, ok: r['2xx'], non2xx: r.non2xx, errors: r.errors, client_p50_ms: r.latency.p50, client_p99_ms: r.latency.p99 };
  process.stdout.write(JSON.stringify(result));
}

/** Runs one load in a child process; `dir` holds its spec file, `name` names it. */
export function runAutocannon(spec: AutocannonSpec, dir: string, name: string): Promise<AutocannonResult> {
  const specPath = join(dir, `${name}.json`);
  writeFileSync(specPath, JSON.stringify(spec));
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--load-child', specPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code, signal) => (code === 0 ? res(JSON.parse(out) as AutocannonResult) : rej(new Error(`load generator exited ${code ?? signal}`))));
  });
}

if (process.argv[2] === '--load-child') await loadChild(process.argv[3]!);
