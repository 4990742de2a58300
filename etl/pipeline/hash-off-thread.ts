import { Worker } from 'node:worker_threads';

/**
 * SHA-256 of files on a worker thread of their own. On the main thread a file's hash waits
 * for the event loop between its 1 MiB reads, and during staging the loop is busy with the
 * TS readers' parsing: the native lane, which cannot start a file before its hash (the
 * staging cache's key), waited there. One worker, started on first use, unref'd so it never
 * keeps the process alive while none is awaited; plain CommonJS (`eval`), so it needs no
 * TypeScript loader.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { createReadStream } = require('node:fs');
parentPort.on('message', async ({ id, path }) => {
  try {
    const h = createHash('sha256');
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) h.update(chunk);
    parentPort.postMessage({ id, hex: h.digest('hex') });
  } catch (e) {
    parentPort.postMessage({ id, error: { message: e.message, code: e.code } });
  }
});
`;

type Pending = { resolve: (hex: string) => void; reject: (e: Error) => void };
let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

function failAll(e: Error): void {
  worker = undefined;
  for (const p of pending.values()) p.reject(e);
  pending.clear();
}

function hasher(): Worker {
  if (worker) return worker;
  // No execArgv of the parent's: its `--import tsx` is not needed, and an `--input-type=module`
  // would make the source an ES module, where `require` does not exist.
  const w = new Worker(WORKER_SOURCE, { eval: true, name: 'file hasher', execArgv: [] });
  w.unref();
  w.on('message', ({ id, hex, error }: { id: number; hex?: string; error?: { message: string; code?: string } }) => {
    const p = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) w.unref();
    if (!p) return;
    if (error) p.reject(Object.assign(new Error(error.message), error.code ? { code: error.code } : {}));
    else p.resolve(hex!);
  });
  // A worker that dies fails what it was asked; the next call starts another.
  w.on('error', (e) => failAll(new Error(`file hasher failed: ${e.message}`)));
  w.on('exit', (code) => { if (worker === w) failAll(new Error(`file hasher exited (code ${code})`)); });
  worker = w;
  return w;
}

/** The file's SHA-256 (hex), taken on the hasher thread; rejects as reading the file would (ENOENT and so on). */
export function sha256FileOffThread(path: string): Promise<string> {
  const w = hasher();
  const id = nextId++;
  // Referenced while a hash is awaited: a process waiting only on it must not exit.
  w.ref();
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, path });
  });
}
