/**
 * `npm run accounts -- <command>`: create and manage API accounts.
 *
 * File ledger: with no server running, the CLI opens the ledger itself (taking the writer
 * lock). While a server holds the lock, it sends the same request over the server's admin
 * socket, so the change (a revoked key, say) takes effect in the serving process at once.
 * PostgreSQL ledger (`--ledger-url` or LEDGER_URL): the CLI works on the database directly,
 * with or without servers running; every replica sees the change on its next request.
 * `migrate-to-postgres` moves a file ledger into an empty PostgreSQL ledger, once.
 * Exit codes: 0 done; 2 bad input (usage, unknown account, invalid plan change); 1 failure.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AdminRequest, runAdminOp, type AdminResult } from '../ledger/admin-ops.ts';
import { AdminRequestError, adminRequest, adminSocketPath } from '../ledger/admin-socket.ts';
import { LedgerError } from '../ledger/errors.ts';
import { ledgerDir, openFileLedger } from '../ledger/file-ledger.ts';
import { openPgLedger } from '../ledger/pg-ledger.ts';
import { importFileLedger } from '../ledger/pg/import-file.ts';
import { LedgerLockedError } from '../ledger/lock.ts';
import { TIERS } from '../../schemas/plans.ts';
import { human } from './format.ts';

const USAGE = `usage: npm run accounts -- <command> [options]

commands:
  create --tier <${TIERS.join('|')}> [--name N] [--rate-limit N/10s]   (rate limit: enterprise only)
  list
  show <account_id>
  upgrade <account_id> --tier T
  downgrade <account_id> --tier T          (takes effect at the next renewal)
  revoke-key <account_id>
  rotate-key <account_id>                  (prints the new key)
  migrate-to-postgres --ledger-url URL     (move the file ledger of --data-dir into an empty
                                            PostgreSQL ledger; refuses to run twice)

options:
  --json              machine-readable output
  --data-dir DIR      data directory (default: $DATA_DIR or ./data)
  --ledger-url URL    PostgreSQL ledger, postgres://… (default: $LEDGER_URL; unset: the file ledger)`;

export class UsageError extends Error {}

/** "N/10s", "N/1s", "N/500ms" or a bare N (per 10 seconds). */
export function parseRateLimit(text: string): { limit: number; windowMs: number } {
  const m = /^(\d+)(?:\/(\d+)(ms|s|m))?$/.exec(text.trim());
  if (!m) throw new UsageError(`--rate-limit must look like 100/10s (got "${text}")`);
  const limit = Number(m[1]);
  const unit = m[3] ?? 's';
  const windowMs = (m[2] === undefined ? 10 : Number(m[2])) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000);
  if (limit < 1 || windowMs < 1) throw new UsageError('--rate-limit needs a positive count and window');
  return { limit, windowMs };
}

export function parseCommand(argv: string[]): { req: AdminRequest; json: boolean; dataDir: string; ledgerUrl: string | undefined } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tier: { type: 'string' },
      name: { type: 'string' },
      'rate-limit': { type: 'string' },
      json: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      'ledger-url': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [op, id, ...extra] = positionals;
  if (values.help || !op) throw new UsageError(values.help ? '' : 'missing command');
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  const needsId = ['show', 'upgrade', 'downgrade', 'revoke-key', 'rotate-key'].includes(op);
  if (needsId && !id) throw new UsageError(`${op} needs an <account_id>`);
  if (!needsId && id) throw new UsageError(`${op} takes no <account_id> (got "${id}")`);
  const raw: Record<string, unknown> = { op };
  if (needsId) raw.account_id = id;
  if (values.tier !== undefined) raw.tier = values.tier;
  if (values.name !== undefined) raw.name = values.name;
  if (values['rate-limit'] !== undefined) raw.rate_limit = parseRateLimit(values['rate-limit']);
  if (['create', 'upgrade', 'downgrade'].includes(op) && values.tier === undefined) throw new UsageError(`${op} needs --tier`);
  if (op !== 'create' && (values.name !== undefined || values['rate-limit'] !== undefined)) {
    throw new UsageError('--name and --rate-limit apply to create only');
  }
  if (!['create', 'upgrade', 'downgrade'].includes(op) && values.tier !== undefined) throw new UsageError(`${op} takes no --tier`);
  const parsed = AdminRequest.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? '');
    if (field === 'op') throw new UsageError(`unknown command "${op}"`);
    if (field === 'tier') throw new UsageError(`--tier must be one of ${TIERS.join(', ')} (got "${values.tier}")`);
    throw new UsageError(`${field || 'input'}: ${issue.message}`);
  }
  const dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');
  const ledgerUrl = ledgerUrlOf(values['ledger-url']);
  return { req: parsed.data, json: values.json ?? false, dataDir, ledgerUrl };
}

function ledgerUrlOf(flag: string | undefined): string | undefined {
  const url = flag ?? (process.env.LEDGER_URL || undefined);
  if (url !== undefined && !/^postgres(ql)?:\/\//.test(url)) throw new UsageError(`--ledger-url must be a postgres:// URL (got "${url}")`);
  return url;
}

/** `migrate-to-postgres [--data-dir DIR] --ledger-url URL [--json]` */
export function parseMigrate(argv: string[]): { dataDir: string; ledgerUrl: string; json: boolean } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, 'data-dir': { type: 'string' }, 'ledger-url': { type: 'string' } },
  });
  if (positionals.length > 1) throw new UsageError(`unexpected arguments: ${positionals.slice(1).join(' ')}`);
  const ledgerUrl = ledgerUrlOf(values['ledger-url']);
  if (!ledgerUrl) throw new UsageError('migrate-to-postgres needs --ledger-url postgres://… (or LEDGER_URL)');
  return { dataDir: resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data'), ledgerUrl, json: values.json ?? false };
}

/** Runs the request on the ledger directly, or through the admin socket while a server holds the lock. */
export async function execute(req: AdminRequest, dataDir: string, ledgerUrl?: string): Promise<AdminResult> {
  if (ledgerUrl) {
    const pg = await openPgLedger({ url: ledgerUrl });
    try {
      return await runAdminOp(pg, req, new Date());
    } finally {
      await pg.close();
    }
  }
  const dir = ledgerDir(dataDir);
  let ledger;
  try {
    ledger = await openFileLedger({ dir });
  } catch (e) {
    if (!(e instanceof LedgerLockedError)) throw e;
    try {
      return await adminRequest(adminSocketPath(dir), req);
    } catch (se) {
      if (se instanceof AdminRequestError && se.code === 'unavailable') {
        throw new Error(`${e.message}; its admin socket does not answer (${se.message})`);
      }
      throw se;
    }
  }
  try {
    return await runAdminOp(ledger, req, new Date());
  } finally {
    await ledger.close();
  }
}

const BAD_INPUT = new Set(['invalid_input', 'unknown_account', 'invalid_plan_change']);

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'migrate-to-postgres') return migrateMain(argv);
  let cmd;
  try {
    cmd = parseCommand(argv);
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof TypeError)) throw e; // parseArgs throws TypeError on unknown flags
    // Asked for: the usage on stdout, success. Given wrong: on stderr, exit 2.
    if (e instanceof UsageError && e.message === '') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    process.stderr.write(`accounts: ${e.message}\n\n${USAGE}\n`);
    return 2;
  }
  try {
    const result = await execute(cmd.req, cmd.dataDir, cmd.ledgerUrl);
    process.stdout.write(`${cmd.json ? JSON.stringify(result) : human(cmd.req, result)}\n`);
    return 0;
  } catch (e) {
    const code = e instanceof LedgerError || e instanceof AdminRequestError ? e.code : undefined;
    process.stderr.write(`accounts: ${(e as Error).message}\n`);
    return code !== undefined && BAD_INPUT.has(code) ? 2 : 1;
  }
}

async function migrateMain(argv: string[]): Promise<number> {
  let cmd;
  try {
    cmd = parseMigrate(argv.slice(1));
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof TypeError)) throw e;
    process.stderr.write(`accounts: ${e.message}\n\n${USAGE}\n`);
    return 2;
  }
  try {
    const r = await importFileLedger(ledgerDir(cmd.dataDir), cmd.ledgerUrl);
    process.stdout.write(
      cmd.json
        ? `${JSON.stringify(r)}\n`
        : `moved ${r.accounts} accounts, ${r.keys} keys, ${r.usage_cells} usage cells and ${r.records} log records from ${r.source_dir} into PostgreSQL${r.from_snapshot ? ' (older records were compacted into the snapshot: their state is moved)' : ''}\n`,
    );
    return 0;
  } catch (e) {
    process.stderr.write(`accounts: ${(e as Error).message}\n`);
    return e instanceof LedgerError && BAD_INPUT.has(e.code) ? 2 : 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('service/accounts/cli.ts')) {
  process.exitCode = await main(process.argv.slice(2));
}
