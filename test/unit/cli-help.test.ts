/**
 * Every CLI answers --help (issue 44): the usage on stdout and exit 0, where a mistaken
 * option is the usage on stderr and exit 2. And the ETL's JSON log writes ISO times, as the
 * service's does.
 */
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLog } from '../../etl/pipeline/json-log.ts';

const ROOT = join(import.meta.dirname, '../..');
const run = (script: string, args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, script), ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATA_DIR: '/nonexistent-pi-help' } });

describe('--help', () => {
  const clis: [string, string[], RegExp][] = [
    ['etl/cli.ts', ['--help'], /npm run etl -- plan/],
    ['etl/cli.ts', ['schedule', '--help'], /npm run etl -- schedule/],
    ['etl/cli.ts', ['help'], /npm run etl -- run/],
    ['etl/synth/cli.ts', ['--help'], /npm run synth -- --out DIR/],
    ['service/accounts/cli.ts', ['--help'], /npm run accounts -- <command>/],
    ['service/accounts/cli.ts', ['create', '--help'], /npm run accounts -- <command>/],
    ['tools/sql-shell.ts', ['--help'], /npm run --silent sql/],
  ];
  it.each(clis)('%s %s prints the usage and exits 0', (script, args, usage) => {
    const r = run(script, args);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(usage);
    expect(r.stderr).toBe('');
  });

  it.each([['etl/cli.ts', ['schedule', '--frobnicate']], ['service/accounts/cli.ts', ['create', '--frobnicate']], ['tools/sql-shell.ts', ['--frobnicate']]])(
    '%s with an unknown option prints the usage on stderr and exits 2',
    (script, args) => {
      const r = run(script, args as string[]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/usage/i);
    },
  );
});

describe('the ETL JSON log', () => {
  it('writes ISO 8601 times, not epoch milliseconds', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) });
    jsonLog(sink as never).info({ stage: 'x' }, 'hello');
    await new Promise((r) => setImmediate(r));
    const rec = JSON.parse(lines[0]!);
    expect(rec.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(rec).toMatchObject({ service: 'etl', msg: 'hello', stage: 'x' });
  });
});
