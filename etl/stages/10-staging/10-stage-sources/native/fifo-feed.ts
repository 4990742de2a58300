import { execFileSync } from 'node:child_process';
import { closeSync, constants, createWriteStream, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openSource } from '../../../../sources/io.ts';

/**
 * A source file DuckDB cannot open itself (a zip archive's member: DuckDB reads plain and
 * gzip CSV only) fed to its CSV reader through a named pipe: the member is inflated as
 * DuckDB reads, and nothing decompressed is written to disk. `path` is what DuckDB reads;
 * `done()` settles once the feed has stopped: undefined when every byte went through, else
 * the error that stopped it (a damaged archive), which the caller must raise even when
 * DuckDB read without complaint, since DuckDB saw only an early end of file.
 */
export interface FifoFeed {
  path: string;
  done(): Promise<Error | undefined>;
}

export function feedThroughFifo(source: string): FifoFeed {
  const dir = mkdtempSync(join(tmpdir(), 'pi-etl-fifo-'));
  const path = join(dir, 'member.csv');
  execFileSync('mkfifo', ['-m', '600', path]);
  let opened = false;
  // The write end's open blocks until DuckDB opens the read end: a read that fails before
  // then would leave it (and a libuv thread) waiting, so `done` opens the read end itself.
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  out.on('open', () => { opened = true; });
  const feeding: Promise<Error | undefined> = openSource(source)
    .then((input) => pipeline(input, out))
    // EPIPE: DuckDB stopped reading (its own error, which the caller handles), not a damaged source.
    .then(() => undefined, (e: unknown) => { out.destroy(); return (e as NodeJS.ErrnoException).code === 'EPIPE' ? undefined : e as Error; });
  return {
    path,
    async done() {
      if (!opened) {
        try {
          closeSync(openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
        } catch { /* the writer has gone */ }
      }
      const e = await feeding;
      rmSync(dir, { recursive: true, force: true });
      return e;
    },
  };
}
