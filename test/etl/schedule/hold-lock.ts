/**
 * Child process for the lock tests: takes the ETL build lock on DATA_DIR (argv[2]), prints
 * `held <pid>`, and keeps it until its stdin ends (or it is killed, like a crashed run).
 */
import { withBuildLock } from '../../../etl/schedule/lock.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: hold-lock.ts DATA_DIR');
await withBuildLock(dataDir, async () => {
  process.stdout.write(`held ${process.pid}\n`);
  await new Promise<void>((resolve) => {
    process.stdin.on('end', resolve);
    process.stdin.resume();
  });
});
process.stdout.write('released\n');
