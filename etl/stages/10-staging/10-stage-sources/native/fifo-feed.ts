import { execFileSync } from 'node:child_process';
import { constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openSource } from '../../../../sources/io.ts';

/**
 * A source file DuckDB cannot open itself (a zip archive's member: DuckDB reads plain and
 * gzip CSV only) fed to its CSV reader through a named pipe: the member is inflated as
 * DuckDB reads, and nothing decompressed is written to disk. `path` is what DuckDB reads;
 * `done()`, called once DuckDB has stopped reading, ends the feed and settles: undefined
 * when every byte went through (or DuckDB stopped early, its own error), else the error that
 * stopped the feed (a damaged archive), which the caller must raise even when DuckDB read
 * without complaint, since DuckDB saw only an early end of file.
 */
export interface FifoFeed {
  path: string;
  done(): Promise<Error | undefined>;
}

export function feedThroughFifo(source: string): FifoFeed {
  const dir = mkdtempSync(join(tmpdir(), 'pi-etl-fifo-'));
  const path = join(dir, 'member.csv');
  execFileSync('mkfifo', ['-m', '600', path]);
  // Opened read-write and non-blocking, the write end neither waits for DuckDB to open the
  // pipe (a read that fails first would leave it waiting) nor ties up a libuv thread on a
  // full pipe: the event loop writes when there is room. Being a reader too, it keeps
  // DuckDB from seeing an end of file before the feed closes it.
  const out = new Socket({ fd: openSync(path, constants.O_RDWR | constants.O_NONBLOCK), readable: false, writable: true });
  let settled = false;
  const feeding: Promise<Error | undefined> = openSource(source)
    .then((input) => pipeline(input, out))
    .then(() => undefined, (e: unknown) => e as Error)
    .finally(() => {
      settled = true;
      out.destroy(); // the end of file DuckDB waits for
    });
  return {
    path,
    async done() {
      // DuckDB has stopped: a feed still going (DuckDB failed early) is cut off, not an error of the source.
      const cut = !settled;
      if (cut) out.destroy();
      const e = await feeding;
      rmSync(dir, { recursive: true, force: true });
      return cut ? undefined : e;
    },
  };
}
