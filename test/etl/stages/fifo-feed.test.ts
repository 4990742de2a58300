import { DuckDBInstance } from '@duckdb/node-api';
import { createWriteStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import yazl from 'yazl';
import { afterAll, describe, expect, it } from 'vitest';
import { feedThroughFifo } from '../../../etl/stages/10-staging/10-stage-sources/native/fifo-feed.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-fifo-');
afterAll(tmp.cleanup);

const ROWS = 20_000;
const CSV = 'id,name\n' + Array.from({ length: ROWS }, (_, i) => `${i},name ${i}\n`).join('');

async function archive(name: string, stored = false): Promise<string> {
  const path = join(tmp.dir, name);
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(CSV), 'data.csv', { compress: !stored });
  zip.end();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  await once(out, 'close');
  return path;
}

async function countThrough(path: string): Promise<number> {
  const conn = await (await DuckDBInstance.create(':memory:')).connect();
  const r = await conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_csv('${path}', columns = {'id': 'VARCHAR', 'name': 'VARCHAR'}, header = true, auto_detect = false, compression = 'none')`);
  return r.getRowObjects()[0]!.n as number;
}

describe('a zip member fed to DuckDB through a named pipe', () => {
  it('reaches DuckDB whole, and the pipe and its folder are gone after', async () => {
    const feed = feedThroughFifo(`${await archive('whole.zip')}/data.csv`);
    expect(await countThrough(feed.path)).toBe(ROWS);
    expect(await feed.done()).toBeUndefined();
    expect(existsSync(dirname(feed.path))).toBe(false);
  });

  it('a damaged member: DuckDB sees only an end of file (after part of the rows), the feed says what went wrong', async () => {
    const a = await archive('damaged.zip', true);
    const bytes = readFileSync(a);
    bytes[bytes.indexOf('name 10000')] = 'N'.charCodeAt(0);
    writeFileSync(a, bytes);
    const feed = feedThroughFifo(`${a}/data.csv`);
    expect(await countThrough(feed.path)).toBeLessThanOrEqual(ROWS);
    expect((await feed.done())?.message).toMatch(/damaged\.zip: member data\.csv is damaged \(CRC-32/);
  });

  it('a feed nobody reads (DuckDB failed before opening the pipe) is ended, not left waiting', async () => {
    const feed = feedThroughFifo(`${await archive('unread.zip')}/data.csv`);
    expect(await feed.done()).toBeUndefined();
    expect(existsSync(dirname(feed.path))).toBe(false);
  });
});
