import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256File } from '../../../etl/pipeline/discover.ts';
import { sha256FileOffThread } from '../../../etl/pipeline/hash-off-thread.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);
const run = promisify(execFile);

describe('file hashes taken on the hasher thread', () => {
  it('are the SHA-256 of the bytes, for files empty, small and of several read chunks, asked for at once', async () => {
    const contents = [Buffer.alloc(0), Buffer.from('uprn,postcode\n1,BS1 4DJ\n'), randomBytes(3 * (1 << 20) + 17)];
    const paths = contents.map((c, i) => writeFixture(tmp.dir, `f${i}.bin`, c));
    const got = await Promise.all([...paths, ...paths].map((p) => sha256File(p)));
    const want = contents.map((c) => createHash('sha256').update(c).digest('hex'));
    expect(got).toEqual([...want, ...want]);
  });

  it('reject as reading the file would, and the hasher keeps serving', async () => {
    await expect(sha256FileOffThread(join(tmp.dir, 'missing.csv'))).rejects.toMatchObject({ code: 'ENOENT', message: expect.stringContaining('missing.csv') });
    await expect(sha256FileOffThread(tmp.dir)).rejects.toMatchObject({ code: 'EISDIR' });
    const p = writeFixture(tmp.dir, 'after.txt', 'still here');
    expect(await sha256FileOffThread(p)).toBe(createHash('sha256').update('still here').digest('hex'));
  });

  it('do not keep a process alive once answered, and keep it alive while awaited', async () => {
    const p = writeFixture(tmp.dir, 'exit.bin', randomBytes(2 << 20));
    const script = `import { sha256FileOffThread } from ${JSON.stringify(join(import.meta.dirname, '../../../etl/pipeline/hash-off-thread.ts'))};
      sha256FileOffThread(${JSON.stringify(p)}).then((h) => console.log(h));`;
    // Nothing else holds the event loop: the answer must still arrive, and then the process must end.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 60_000 });
    expect(stdout.trim()).toBe(await sha256File(p));
  }, 90_000);
});
