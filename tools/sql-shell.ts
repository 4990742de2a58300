/**
 * `npm run sql`: ad hoc SQL for data staff over the live build.
 *
 *   npm run sql                          interactive prompt (statements end with `;`)
 *   npm run sql -- "SELECT …"            one query, aligned table on stdout
 *   npm run sql -- --csv|--json "…"      the same as CSV or a JSON array (never capped)
 *   npm run sql -- --data-dir DIR …      or env DATA_DIR (default ./data)
 *
 * DuckDB runs in memory with one view per published table over its Parquet file, plus a
 * `manifest` view over the build's manifest.json. Views point at `builds/<id>/` (resolved
 * once at start), not through `current`, so a session sees one build even if a new one is
 * promoted meanwhile. Nothing is refused: DuckDB in memory cannot change the Parquet files.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import { DuckDBInstance, ResultReturnType } from '@duckdb/node-api';
import type { DuckDBConnection, DuckDBResult } from '@duckdb/node-api';
import type { Manifest } from '../schemas/manifest.ts';
import { buildDir, currentLink } from '../etl/publish/layout.ts';
import { currentBuildId, readManifest } from '../etl/publish/publish.ts';
import { printCsv, printJson, printTable, TABLE_ROW_CAP, write } from './sql-shell-output.ts';

export { TABLE_ROW_CAP };

type Mode = 'table' | 'csv' | 'json';
const MODES: readonly Mode[] = ['table', 'csv', 'json'];


const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

const HELP = `Usage: npm run --silent sql [-- [--csv | --json] [--data-dir DIR] [--out FILE] ["SQL" | .command]]

--out FILE writes a query's result to FILE (clean CSV or JSON, whatever npm prints); without
it, use npm's --silent so that npm's own banner stays out of a redirected file.

Without a query: an interactive prompt over the live build (DATA_DIR/current).
Statements end with ';' and may span lines. Meta commands:
  .tables            the build's tables (views over Parquet) with row counts
  .schema [TABLE]    columns and types (all tables without an argument)
  .mode [table|csv|json]  output format (table shows at most ${TABLE_ROW_CAP.toLocaleString('en-GB')} rows)
  .build             build id, creation time and each source's as-of date
  .manifest          the build's manifest.json
  .help              this text
  .quit              leave (also .exit or end of input)
The 'manifest' view holds the manifest as one row (e.g. SELECT build_id FROM manifest).
`;

class UsageError extends Error {}
/** An expected failure: printed as its message alone, never with a stack. */
class ShellError extends Error {}

interface Args {
  query?: string;
  mode: Mode;
  dataDir: string;
  help: boolean;
  out?: string;
}

function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): Args {
  const args: Args = { mode: 'table', dataDir: env.DATA_DIR || './data', help: false };
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--csv') args.mode = 'csv';
    else if (a === '--json') args.mode = 'json';
    else if (a === '--table') args.mode = 'table';
    else if (a === '--help' || a === '-h') args.help = true;
    else if (a === '--data-dir') {
      const v = argv[++i];
      if (!v) throw new UsageError('--data-dir needs a folder');
      args.dataDir = v;
    } else if (a.startsWith('--data-dir=')) args.dataDir = a.slice('--data-dir='.length);
    else if (a === '--out') {
      const v = argv[++i];
      if (!v) throw new UsageError('--out needs a file');
      args.out = v;
    } else if (a.startsWith('--out=')) args.out = a.slice('--out='.length);
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else words.push(a);
  }
  // `npm run sql -- SELECT 1` arrives as two words: take them as one statement.
  if (words.length > 0) args.query = words.join(' ');
  return args;
}

interface Session {
  conn: DuckDBConnection;
  close(): void;
  manifest: Manifest;
  dir: string;
  views: string[];
  mode: Mode;
}

/** Opens DuckDB in memory over the build `current` points at. */
async function openSession(dataDir: string, mode: Mode, warn: (msg: string) => void): Promise<Session> {
  const id = await currentBuildId(dataDir);
  if (!id) {
    throw new ShellError(
      `no published build in ${resolve(dataDir)} (${currentLink(resolve(dataDir))} is missing): ` +
        'run the ETL first (npm run etl -- run) or point --data-dir or DATA_DIR at a data folder',
    );
  }
  const dir = resolve(buildDir(dataDir, id));
  let manifest: Manifest;
  try {
    manifest = await readManifest(dir);
  } catch (e) {
    throw new ShellError(`build ${id} has no valid manifest.json: ${(e as Error).message}`);
  }
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const views: string[] = [];
  for (const [name, t] of Object.entries(manifest.tables)) {
    const file = resolve(dir, t.file);
    // Names and paths come from a file on disk: never let one become SQL or leave the build.
    if (!IDENT.test(name)) {
      warn(`skipping table ${JSON.stringify(name)}: not a plain SQL identifier`);
      continue;
    }
    if (!file.startsWith(dir + sep)) {
      warn(`skipping table ${name}: its file ${JSON.stringify(t.file)} is outside the build folder`);
      continue;
    }
    await conn.run(`CREATE VIEW "${name}" AS SELECT * FROM read_parquet(${sqlString(file)})`);
    views.push(name);
  }
  if (!('manifest' in manifest.tables)) {
    await conn.run(`CREATE VIEW manifest AS SELECT * FROM read_json(${sqlString(resolve(dir, 'manifest.json'))})`);
  }
  return {
    conn,
    manifest,
    dir,
    views,
    mode,
    close: () => {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** Runs every statement in `sql` in order, printing the result of each that returns rows. */
async function runSql(s: Session, sql: string, out: Writable): Promise<void> {
  let extracted;
  try {
    extracted = await s.conn.extractStatements(sql);
  } catch (e) {
    throw new ShellError((e as Error).message.replace(/^Failed to extract statements: /, ''));
  }
  for (let i = 0; i < extracted.count; i++) {
    let result: DuckDBResult;
    try {
      result = await (await extracted.prepare(i)).stream();
    } catch (e) {
      throw new ShellError((e as Error).message);
    }
    if (result.returnType !== ResultReturnType.QUERY_RESULT) continue;
    try {
      if (s.mode === 'csv') await printCsv(result, out);
      else if (s.mode === 'json') await printJson(result, out);
      else await printTable(result, out);
    } catch (e) {
      // Errors can surface mid-stream (e.g. a bad cast on a later row group).
      throw new ShellError((e as Error).message);
    }
  }
}

// ---- meta commands ----

/** Runs a `.command`; returns false for `.quit`. Throws ShellError for a bad command. */
async function meta(s: Session, line: string, out: Writable): Promise<boolean> {
  const [cmd, ...rest] = line.trim().split(/\s+/);
  const arg = rest.join(' ');
  switch (cmd) {
    case '.quit':
    case '.exit':
      return false;
    case '.help':
      await write(out, HELP);
      return true;
    case '.tables': {
      const text = s.views.map((v) => {
        const t = s.manifest.tables[v];
        return `${v}  ${t?.rows.toLocaleString('en-GB')} rows  ${t?.file}  sorted by ${t?.sort_key.join(', ') || '-'}`;
      });
      if (!('manifest' in s.manifest.tables)) text.push('manifest  (view over manifest.json)');
      await write(out, text.join('\n') + '\n');
      return true;
    }
    case '.schema': {
      const targets = arg ? [arg] : s.views;
      for (const t of targets) {
        if (!s.views.includes(t) && t !== 'manifest') throw new ShellError(`no table named ${t} (see .tables)`);
        await write(out, `${t}:\n`);
        await runSql({ ...s, mode: 'table' }, `SELECT column_name, column_type, "null" AS nullable FROM (DESCRIBE "${t}")`, out);
      }
      return true;
    }
    case '.mode':
      if (!arg) {
        await write(out, `${s.mode}\n`);
        return true;
      }
      if (!MODES.includes(arg as Mode)) throw new ShellError(`unknown mode ${arg}: use table, csv or json`);
      s.mode = arg as Mode;
      return true;
    case '.build': {
      const m = s.manifest;
      let text = `build ${m.build_id}\ncreated ${m.created_at}\nfolder ${s.dir}\nsources:\n`;
      for (const src of m.sources) text += `  ${src.name}  as of ${src.as_of ?? 'unknown'}  (${src.path})\n`;
      if (m.sources.length === 0) text += '  (none recorded)\n';
      await write(out, text);
      return true;
    }
    case '.manifest':
      await write(out, JSON.stringify(s.manifest, null, 2) + '\n');
      return true;
    default:
      throw new ShellError(`unknown command ${cmd} (try .help)`);
  }
}

/**
 * Whether `sql` ends a statement: its last character outside quotes and comments is `;`.
 * (A `;` inside a string or comment does not end one, unlike a plain endsWith check.)
 */
export function statementComplete(sql: string): boolean {
  let last = '';
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i] as string;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      if (end < 0) return false;
      i = end; // a doubled quote '' reads as two adjacent strings: same outcome
      last = c;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      if (end < 0) break;
      i = end;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) return false;
      i = end + 1;
    } else if (!/\s/.test(c)) last = c;
  }
  return last === ';';
}

/**
 * The prompt. Prompts show only on a terminal, so piped input gives clean output. Errors
 * are printed and the session carries on; with piped input the exit code is 1 if any
 * statement failed, so a script run as `npm run sql < file.sql` can be checked.
 */
async function interactive(s: Session, input: Readable, out: Writable, err: Writable, tty: boolean): Promise<number> {
  const rl = createInterface({ input, ...(tty ? { output: out, terminal: true } : { terminal: false }) });
  let buf = '';
  let failures = 0;
  const prompt = () => {
    if (tty) {
      rl.setPrompt(buf ? '   ...> ' : 'sql> ');
      rl.prompt();
    }
  };
  const attempt = async (fn: () => Promise<unknown>) => {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof ShellError)) throw e;
      failures++;
      await write(err, `Error: ${e.message}\n`);
      return true;
    }
  };
  // Ctrl-C cancels the running query or the statement being typed; on an empty prompt it quits.
  let running = false;
  rl.on('SIGINT', () => {
    if (running) s.conn.interrupt();
    else if (buf) {
      buf = '';
      out.write('^C\n');
      prompt();
    } else rl.close();
  });
  if (tty) await write(out, `build ${s.manifest.build_id}: ${s.views.length} tables. Statements end with ';'. .help for commands.\n`);
  prompt();
  for await (const line of rl) {
    if (!buf && line.trim().startsWith('.')) {
      if ((await attempt(() => meta(s, line, out))) === false) break;
    } else if (buf || line.trim()) {
      buf += (buf ? '\n' : '') + line;
      if (statementComplete(buf)) {
        const sql = buf;
        buf = '';
        running = true;
        await attempt(() => runSql(s, sql, out));
        running = false;
      }
    }
    prompt();
  }
  rl.close();
  // Input ended mid-statement: run what there is rather than drop it silently.
  if (buf.trim()) await attempt(() => runSql(s, buf, out));
  return !tty && failures > 0 ? 1 : 0;
}

/** A result file written beside its place and renamed in when complete: never half a CSV. */
async function openOut(path: string): Promise<{ stream: Writable; commit(): Promise<void>; abandon(): Promise<void> }> {
  const tmp = `${path}.partial-${process.pid}`;
  const stream = createWriteStream(tmp);
  await new Promise<void>((res, rej) => stream.once('open', () => res()).once('error', (e) => rej(new ShellError(`cannot write ${path}: ${e.message}`))));
  const closed = () => new Promise<void>((res, rej) => stream.end((e?: Error | null) => (e ? rej(e) : res())));
  return {
    stream,
    commit: async () => {
      await closed();
      await rename(tmp, path);
    },
    abandon: async () => {
      await closed().catch(() => {});
      await rm(tmp, { force: true });
    },
  };
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { stdout, stderr, stdin } = process;
  const say = (msg: string) => void stderr.write(msg + '\n');
  let args: Args;
  try {
    args = parseArgs(argv, env);
  } catch (e) {
    say(`${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (args.help) {
    stdout.write(HELP);
    return 0;
  }
  let s: Session;
  try {
    s = await openSession(args.dataDir, args.mode, (m) => say(`warning: ${m}`));
  } catch (e) {
    say(`Error: ${(e as Error).message}`);
    return 1;
  }
  try {
    if (args.query === undefined) return await interactive(s, stdin, stdout, stderr, Boolean(stdin.isTTY));
    if (args.out !== undefined && args.query.trim().startsWith('.')) throw new ShellError('--out takes a query, not a dot command');
    // The result goes to a file of its own: written whole, then renamed into place.
    const file = args.out === undefined ? undefined : await openOut(args.out);
    try {
      if (args.query.trim().startsWith('.')) await meta(s, args.query, stdout);
      else await runSql(s, args.query, file?.stream ?? stdout);
      await file?.commit();
      return 0;
    } catch (e) {
      await file?.abandon();
      if (!(e instanceof ShellError)) throw e;
      say(`Error: ${e.message}`);
      return 1;
    }
  } finally {
    s.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  // A reader that closes the pipe early (`| head`) is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  process.exitCode = await main(process.argv.slice(2), process.env);
}
