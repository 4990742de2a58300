/**
 * The whole-system bench's report (bench/mixed.ts): what counts as an unexpected answer, the
 * ETL section, and the Markdown (totals, per endpoint, every run, the ETL's stages, history).
 */
import { r2, summaryWithMax } from './stats.ts';

export interface EndpointRun {
  client: ReturnType<typeof summaryWithMax>;
  server: ReturnType<typeof summaryWithMax>;
  rps: number;
  ok: number;
  non2xx: Record<string, number>;
  socket_errors: Record<string, number>;
}

export function unexpected(endpoints: Record<string, EndpointRun>, served: Record<string, boolean>): number {
  let n = 0;
  for (const [name, e] of Object.entries(endpoints)) {
    for (const [k, c] of Object.entries(e.non2xx)) if (served[name] || k !== '503 data_unavailable') n += c;
    for (const c of Object.values(e.socket_errors)) n += c;
  }
  return n;
}

export function etlSection(manifest: { build_id: string; created_at: string; stage_timings_ms: Record<string, number> }, now: { wall_s: number; cpu_s: number; peak_rss_mb: number } | undefined) {
  const stages = manifest.stage_timings_ms ?? {};
  return {
    source: now
      ? `measured now (--fresh-etl): build ${manifest.build_id}, made ${manifest.created_at} by this run`
      : `from the manifest of the served bench build ${manifest.build_id}, made ${manifest.created_at} (not re-run: --fresh-etl times it now)`,
    build_id: manifest.build_id,
    created_at: manifest.created_at,
    stage_timings_ms: stages,
    stages_total_ms: Object.values(stages).reduce((a, b) => a + b, 0),
    ...(now ? { wall_s: now.wall_s, cpu_s: now.cpu_s, peak_rss_mb: now.peak_rss_mb } : {}),
  };
}

export function markdown(r: Record<string, any>, history: Record<string, any>[]): string {
  const f = (x: unknown) => (typeof x === 'number' ? (Number.isFinite(x) ? String(x) : '–') : String(x ?? '–'));
  const kv = (o: Record<string, number>) => Object.entries(o).map(([k, c]) => `${c} × ${k}`).join(', ') || '0';
  const short = (name: string) => name.replace(' /v1', ' ');
  const lines: string[] = [];
  const m = r.machine;
  lines.push(`# Mixed workload at ${r.scale.addresses.toLocaleString('en-GB')} addresses`, '');
  lines.push(`${r.when.slice(0, 16).replace('T', ' ')} UTC, commit \`${r.git_commit ?? '?'}\`: \`${r.command}\` (written by bench/mixed.ts).`, '');
  lines.push(`Machine: ${m.cpu_model}, ${m.cores} cores, ${m.ram_gb} GB RAM, ${m.os} (${m.kernel}), Node ${m.node}; load average ${m.load_average_before.join(' / ')} before, ${m.load_average_after.join(' / ')} after (1 / 5 / 15 min). ${r.note}.`, '');
  lines.push(`Build \`${r.build.id}\` (${r.build.created_at}), ${f(r.scale.properties)} properties. Server: \`${r.server.command}\`; listening after ${r.server.listening_after_ms} ms, build warmed in ${r.server.build_warmed_ms} ms (RSS ${r.server.rss_after_warm_mb} MB).`, '');
  lines.push(`Load: ${r.load.connections} connections, closed loop, ${r.load.runs} runs of ${r.load.seconds} s after ${r.load.warmup_s} s of warm-up; one enterprise account (rate limit ${r.account.rate_limit.limit} per ${r.account.rate_limit.windowMs / 1000} s). Figures are the medians of the runs; counts are over all runs. Client latency: request to last byte in the load generator; server: the access log's \`ms\`.`, '');
  const warnings = Object.entries(r.server.warnings_and_errors_logged as Record<string, number>);
  lines.push(`Server warnings and errors logged over the whole session (pre-flight included): ${warnings.map(([k, c]) => `${c} × ${k}`).join('; ') || 'none'}. Server exit: ${r.server.exit.code ?? r.server.exit.signal}.`, '');
  const t = r.totals;
  lines.push('## Totals', '');
  lines.push('| req/s | 2xx req/s | p50 ms | p95 ms | p99 ms | unexpected non-2xx | 503 not served yet | server CPU (cores busy) | server RSS peak / end MB |', '|---|---|---|---|---|---|---|---|---|');
  lines.push(`| ${t.rps} | ${t.rps_2xx} | ${t.client_p50_ms} | ${t.client_p95_ms} | ${t.client_p99_ms} | ${t.unexpected_non2xx_all_runs} | ${t.not_served_503_all_runs} | ${t.server_cores_busy} | ${t.server_rss_peak_mb} / ${t.server_rss_end_mb} |`, '');
  lines.push('## Per endpoint', '');
  lines.push('Weight: requests per 1,000 of the mix. "not served" marks an endpoint this build answers 503 `data_unavailable` (not built yet): its latency is the chain up to that answer.', '');
  lines.push('| endpoint | weight | req/s | client p50 | p95 | p99 ms | server p50 | p95 | p99 ms | requests | non-2xx | socket errors |', '|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const e of r.endpoints) {
    lines.push(`| ${short(e.endpoint)}${e.served ? '' : ' (not served)'} | ${e.weight_per_1000} | ${f(e.rps)} | ${f(e.client.p50_ms)} | ${f(e.client.p95_ms)} | ${f(e.client.p99_ms)} | ${f(e.server.p50_ms)} | ${f(e.server.p95_ms)} | ${f(e.server.p99_ms)} | ${e.requests_all_runs} | ${kv(e.non2xx_all_runs)} | ${kv(e.socket_errors_all_runs)} |`);
  }
  if (r.paced) {
    const p = r.paced;
    lines.push('', `## Paced: open loop at ${p.share_of_flat_out * 100}% of flat out`, '');
    lines.push(`${p.offered_rps} req/s offered (Poisson arrivals; flat out, the closed-loop runs' median, was ${p.flat_out_rps} req/s), at most ${p.max_in_flight} in flight; ${p.runs.length} runs of ${r.load.seconds} s; medians of the runs. Target: every endpoint's server p95 under ${p.target_server_p95_ms} ms. Runs: ${p.runs.map((x: any) => `${x.total.rps} req/s, ${x.dropped} dropped, p95 ${x.total.p95_ms} ms, load ${x.load_average_before.join(' ')}`).join('; ')}.`, '');
    lines.push('| endpoint | req/s | server p50 | p95 | p99 ms | client p95 ms | requests | non-2xx | p95 < 20 ms |', '|---|---|---|---|---|---|---|---|---|');
    for (const e of p.endpoints) lines.push(`| ${short(e.endpoint)}${e.served ? '' : ' (not served)'} | ${f(e.rps)} | ${f(e.server.p50_ms)} | ${f(e.server.p95_ms)} | ${f(e.server.p99_ms)} | ${f(e.client.p95_ms)} | ${e.requests_all_runs} | ${kv(e.non2xx_all_runs)} | ${e.under_target ? 'yes' : '**no**'} |`);
  }
  lines.push('', '## Every run', '');
  lines.push('| run | req/s | 2xx req/s | p50 | p95 | p99 ms | unexpected non-2xx | server CPU s (user + sys) / wall s | cores busy | RSS peak / end MB | generator CPU s | load average before → after |', '|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const x of r.runs) {
    const s = x.server_process;
    lines.push(`| ${x.run} | ${x.total.rps} | ${x.total.rps_2xx} | ${x.total.p50_ms} | ${x.total.p95_ms} | ${x.total.p99_ms} | ${x.total.unexpected_non2xx} | ${s.user_s} + ${s.sys_s} / ${s.wall_s} | ${s.cores_busy} | ${s.rss_peak_mb} / ${s.rss_end_mb} | ${x.load_generator_cpu_s} | ${x.load_average_before.join(' ')} → ${x.load_average_after.join(' ')} |`);
  }
  lines.push('', 'Per endpoint and run (client p95 ms / req/s):', '');
  lines.push(`| endpoint | ${r.runs.map((x: any) => `run ${x.run}`).join(' | ')} |`, `|---|${r.runs.map(() => '---|').join('')}`);
  for (const e of r.endpoints) lines.push(`| ${short(e.endpoint)} | ${r.runs.map((x: any) => `${f(x.endpoints[e.endpoint].client.p95_ms)} / ${f(x.endpoints[e.endpoint].rps)}`).join(' | ')} |`);
  const etl = r.etl;
  lines.push('', '## ETL at this scale', '', `Stage times ${etl.source}.${etl.wall_s ? ` Wall ${etl.wall_s} s, CPU ${etl.cpu_s} s, peak RSS ${etl.peak_rss_mb} MB.` : ''}`, '');
  lines.push('| stage | s |', '|---|---|');
  for (const [k, v] of Object.entries(etl.stage_timings_ms as Record<string, number>)) lines.push(`| ${k} | ${r2(v / 1000)} |`);
  lines.push(`| **total** | **${r2(etl.stages_total_ms / 1000)}** |`);
  lines.push('', '## Pre-flight', '', 'Requests sent once before the runs (also the warm-up) to find which each endpoint answers 2xx; an endpoint that answered some 404 (no evidence or no data there, a documented outcome) is driven with the requests that answered 2xx only.', '');
  lines.push('| endpoint | probed | 2xx | other outcomes | driven with |', '|---|---|---|---|---|');
  for (const [name, p] of Object.entries(r.preflight as Record<string, any>)) {
    const other = Object.fromEntries(Object.entries(p.outcomes as Record<string, number>).filter(([k]) => !/^2\d\d$/.test(k)));
    lines.push(`| ${short(name)} | ${p.probed} | ${p.answered_2xx} | ${kv(other)} | ${p.driven_with} |`);
  }
  if (r.preflight_problems.length) lines.push('', 'Unexpected pre-flight answers:', '', ...r.preflight_problems.map((p: string) => `- ${p}`));
  lines.push('', `## History (last ${history.length} runs at this scale and ${r.load.connections} connections, bench/results/mixed-history.jsonl)`, '');
  lines.push('| date | commit | s × runs | req/s | 2xx req/s | p95 ms | p99 ms | errors | server RSS peak MB |', '|---|---|---|---|---|---|---|---|---|');
  for (const h of history) lines.push(`| ${String(h.date).slice(0, 16).replace('T', ' ')} | ${h.commit ?? '?'} | ${h.seconds} × ${h.runs} | ${h.total_rps} | ${h.rps_2xx} | ${h.p95_ms} | ${h.p99_ms} | ${h.errors} | ${h.server_rss_peak_mb} |`);
  return `${lines.join('\n')}\n`;
}
