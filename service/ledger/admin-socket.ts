/**
 * The admin socket: while a server holds the writer lock, the accounts CLI reaches the
 * ledger through this Unix socket instead of the log, so a revoked key stops working in
 * the serving process at once. Newline-delimited JSON: one request object per line, one
 * response per line, in order: `{ok: true, result}` or `{ok: false, error: {code, message}}`.
 * Only local users with access to the file can connect: the socket is created 0600 inside
 * the ledger directory (0700).
 */
import { chmod, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { AdminRequest, runAdminOp, type AdminResult } from './admin-ops.ts';
import { LedgerError } from './errors.ts';
import type { Ledger } from './types.ts';

export const ADMIN_SOCKET = 'admin.sock';
const MAX_LINE = 64 * 1024;

export const adminSocketPath = (ledgerDir: string) => join(ledgerDir, ADMIN_SOCKET);

/** A ledger, with the clock that dates admin changes (the wall clock if it has none). */
export type AdminLedger = Ledger & { readonly clock?: () => Date };

export async function startAdminServer(ledger: AdminLedger, socketPath: string): Promise<{ close(): Promise<void> }> {
  // We hold the writer lock, so a socket file left here is a dead server's: remove it.
  await unlink(socketPath).catch(() => {});
  const conns = new Set<Socket>();
  const server = createServer((sock) => {
    conns.add(sock);
    sock.on('close', () => conns.delete(sock));
    sock.on('error', () => sock.destroy());
    let buf = '';
    let chain = Promise.resolve();
    sock.setEncoding('utf8');
    sock.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > MAX_LINE && !buf.includes('\n')) {
        sock.end(JSON.stringify({ ok: false, error: { code: 'invalid_input', message: 'request line too long' } }) + '\n');
        return;
      }
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim() === '') continue;
        chain = chain.then(async () => {
          const res = await handle(ledger, line);
          if (!sock.destroyed) sock.write(JSON.stringify(res) + '\n');
        });
      }
    });
  });
  const oldMask = process.umask(0o177); // the socket file is created 0600 by bind()
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(oldMask);
  }
  await chmod(socketPath, 0o600);
  return {
    close: async () => {
      for (const c of conns) c.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await unlink(socketPath).catch(() => {});
    },
  };
}

type Response = { ok: true; result: AdminResult } | { ok: false; error: { code: string; message: string } };

async function handle(ledger: AdminLedger, line: string): Promise<Response> {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, error: { code: 'invalid_input', message: 'request is not JSON' } };
  }
  const req = AdminRequest.safeParse(json);
  if (!req.success) {
    const msg = req.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ');
    return { ok: false, error: { code: 'invalid_input', message: msg } };
  }
  try {
    return { ok: true, result: await runAdminOp(ledger, req.data, ledger.clock?.() ?? new Date()) };
  } catch (e) {
    if (e instanceof LedgerError) return { ok: false, error: { code: e.code, message: e.message } };
    return { ok: false, error: { code: 'internal', message: (e as Error).message } };
  }
}

export class AdminRequestError extends Error {
  override readonly name = 'AdminRequestError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Sends one request and returns its result; rejects with AdminRequestError on an error reply. */
export function adminRequest(socketPath: string, req: AdminRequest, timeoutMs = 10_000): Promise<AdminResult> {
  return new Promise((resolve, reject) => {
    const sock = createConnection(socketPath);
    let buf = '';
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new AdminRequestError('unavailable', `admin socket ${socketPath}: no reply within ${timeoutMs} ms`));
    }, timeoutMs);
    sock.setEncoding('utf8');
    sock.on('connect', () => sock.write(JSON.stringify(req) + '\n'));
    sock.on('error', (e) => {
      clearTimeout(timer);
      reject(new AdminRequestError('unavailable', `admin socket ${socketPath}: ${e.message}`));
    });
    sock.on('data', (chunk: string) => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      sock.end();
      try {
        const res = JSON.parse(buf.slice(0, nl)) as Response;
        if (res.ok) resolve(res.result);
        else reject(new AdminRequestError(res.error.code, res.error.message));
      } catch {
        reject(new AdminRequestError('internal', 'admin socket sent a malformed reply'));
      }
    });
  });
}
