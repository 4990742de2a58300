/**
 * npm run etl -- plan
 * npm run etl -- run --sources DIR [--data-dir DIR] [--no-cache]
 * npm run etl -- schedule --sources DIR [--data-dir DIR] [--cron EXPR]
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import type { EtlLogger } from './pipeline/context.ts';
import { runBuild } from './pipeline/run.ts';
import { sourceKindsOf } from './pipeline/stage-output-cache.ts';
import { STAGES } from './pipeline/stages.ts';
import { PUBLISHED_TABLES } from '../schemas/tables/index.ts';
import { createProgress } from './pipeline/progress.ts';
import { jsonLog } from './pipeline/json-log.ts';
import { checkCron, cronFromEnv, startSchedule, withBuildLock } from './schedule/index.ts';

const USAGE = `usage:
  npm run etl -- help                                  this text (also --help on any command)
  npm run etl -- plan                                  print the stages in order
  npm run etl -- run --sources DIR [--data-dir DIR] [--no-cache]
                                                       build and publish once; --no-cache re-stages, re-matches and recomputes everything
  npm run etl -- schedule --sources DIR [--data-dir DIR] [--cron "0 3 * * *"]
DATA_DIR (default ./data) and ETL_CRON are read from the environment.`;

function fail(msg: string): never {
  process.stderr.write(`${msg}\n\n${USAGE}\n`);
  process.exit(2);
}

function plan(): void {
  STAGES.forEach((s, i) => {
    process.stdout.write(`${String(i + 1).padStart(2)}. ${s.name.padEnd(16)} ${s.description}\n`);
    process.stdout.write(`    reads: ${s.reads.join(', ')}\n    writes: ${s.writes.join(', ') || '(measures only)'}\n`);
    const kinds = s.reuse && sourceKindsOf(STAGES, i);
    if (kinds) process.stdout.write(`    reused while unchanged: the ${[...kinds].sort().join(', ')} files${s.reuse!.today ? ', the day' : ''}, the code\n`);
    if (s.beside) process.stdout.write(`    runs beside the stages from after ${s.beside.after}, on its own connection; waited for here\n`);
  });
  process.stdout.write(`${String(STAGES.length + 1).padStart(2)}. write_tables     Parquet, sorted by key: ${PUBLISHED_TABLES.map((t) => `${t.name}(${t.sortKey.join(',')})`).join(', ')}\n`);
  process.stdout.write(`${String(STAGES.length + 2).padStart(2)}. validate+publish row contracts, counts against the previous build, then switch current atomically\n`);
}

async function main(): Promise<void> {
  const [cmd, ...rest] = process.argv.slice(2);
  // Help on any command, in any place: the usage on stdout, success.
  if (cmd === 'help' || process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (cmd === 'plan') return plan();
  if (cmd !== 'run' && cmd !== 'schedule') fail(cmd ? `unknown command: ${cmd}` : 'no command given');
  let values: { sources?: string; 'data-dir'?: string; cron?: string; 'no-cache'?: boolean };
  try {
    ({ values } = parseArgs({ args: rest, options: { sources: { type: 'string' }, 'data-dir': { type: 'string' }, cron: { type: 'string' }, 'no-cache': { type: 'boolean' } } }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (!values.sources) fail('--sources DIR is required');
  const sourcesDir = resolve(values.sources);
  const dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');
  const tty = process.stderr.isTTY === true;
  // JSON lines for ops (log shippers); readable one-liners when a person watches a terminal.
  const log: EtlLogger = tty ? humanLog() : jsonLog();
  if (cmd === 'run') {
    const progress = createProgress(dataDir, tty);
    try {
      const { build_id, manifest } = await withBuildLock(dataDir, () => runBuild({ dataDir, sourcesDir, log, progress: progress.update, cache: !values['no-cache'] }));
      progress.done();
      const tables = Object.entries(manifest.tables).map(([k, v]) => `${k}=${v.rows}`).join(' ');
      process.stdout.write(`published ${build_id}: ${tables}\n`);
    } catch (e) {
      progress.done();
      process.stderr.write(`build failed, current unchanged: ${(e as Error).message}\n`);
      process.exit(1);
    }
    return;
  }
  const cron = values.cron ?? cronFromEnv(process.env);
  try {
    checkCron(cron);
  } catch (e) {
    fail((e as Error).message);
  }
  const schedule = startSchedule({
    cron, dataDir, log,
    run: ({ now }) => runBuild({ dataDir, sourcesDir, now, log }).then((r) => ({ build_id: r.build_id })),
  });
  log.info({ cron, sources: sourcesDir, data_dir: dataDir }, 'schedule started');
  const stop = async () => {
    await schedule.stop();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function humanLog(): EtlLogger {
  const line = (level: string) => (obj: object, msg?: string) => {
    const o = obj as Record<string, unknown>;
    const detail = Object.entries(o).filter(([k]) => k !== 'build_id').map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(' ');
    process.stderr.write(`\r\x1b[K${level === 'info' ? '' : `${level.toUpperCase()} `}${msg ?? ''} ${detail}\n`);
  };
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

await main();
