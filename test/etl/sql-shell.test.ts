import { spawn } from 'node:child_process';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { beginBuild, promoteBuild, writeManifest } from '../../etl/publish/publish.ts';
import { statementComplete } from '../../tools/sql-shell.ts';
import { tempDir } from '../support/tmp.ts';

const SHELL = join(import.meta.dirname, '../../tools/sql-shell.ts');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the shell as data staff would, in a child process, optionally feeding stdin. */
function runShell(args: string[], env: Record<string, string>, stdin = ''): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SHELL, ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** A real published build: two small Parquet tables and a manifest, promoted to `current`. */
async function publishSmallBuild(dataDir: string, postcodeRows: number): Promise<string> {
  const { id, dir } = await beginBuild(dataDir, new Date('2026-11-21T03:00:00Z'));
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await conn.run(`COPY (SELECT * FROM (VALUES
      (100023336956, 'SW1A 1AA', 'Flat 1, 10 Downing Street', 1250000::BIGINT),
      (100023336957, 'SW1A 1AA', 'Flat 2, "The Annexe", 10 Downing Street', NULL),
      (10093609154, 'M1 1AE', 'Unit 3, Piccadilly
Manchester', 240000)
    ) t(uprn, postcode, address, last_price) ORDER BY uprn) TO '${join(dir, 'properties.parquet')}' (FORMAT parquet)`);
  await conn.run(`COPY (SELECT 'AB' || lpad(i::VARCHAR, 5, '0') AS postcode, i AS n FROM range(${postcodeRows}) r(i))
    TO '${join(dir, 'postcodes.parquet')}' (FORMAT parquet)`);
  conn.closeSync();
  db.closeSync();
  const bytes = async (f: string) => (await stat(join(dir, f))).size;
  await writeManifest(dir, {
    build_id: id,
    created_at: '2026-11-21T03:12:00Z',
    schema_version: 1,
    sources: [{
      name: 'price-paid', path: 'ppd/pp-2025.csv', bytes: 10, sha256: 'a'.repeat(64), as_of: '2025-10-31',
      rows_read: 3, rows_rejected: 0, rejected_by_reason: {},
    }],
    tables: {
      properties: { file: 'properties.parquet', rows: 3, bytes: await bytes('properties.parquet'), sort_key: ['uprn'] },
      postcodes: { file: 'postcodes.parquet', rows: postcodeRows, bytes: await bytes('postcodes.parquet'), sort_key: ['postcode'] },
    },
    match_rates: {},
    stage_timings_ms: {},
    quality: {},
  });
  await promoteBuild(dataDir, id);
  return id;
}

describe('npm run sql against a published build', () => {
  const tmp = tempDir('pi-sql-');
  const env = { DATA_DIR: tmp.dir };
  let buildId = '';
  beforeAll(async () => {
    buildId = await publishSmallBuild(tmp.dir, 2500);
  });
  afterAll(() => tmp.cleanup());

  it('runs a query argument and prints an aligned table', async () => {
    const r = await runShell(['SELECT uprn, postcode, last_price FROM properties ORDER BY uprn'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe([
      'uprn         | postcode | last_price',
      '-------------+----------+-----------',
      ' 10093609154 | M1 1AE   |     240000',
      '100023336956 | SW1A 1AA |    1250000',
      '100023336957 | SW1A 1AA |       NULL',
      '(3 rows)',
      '',
    ].join('\n'));
  });

  it('prints CSV with RFC 4180 quoting and empty NULLs, every row', async () => {
    const r = await runShell(['--csv', 'SELECT uprn, address, last_price FROM properties ORDER BY uprn'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe([
      'uprn,address,last_price',
      '10093609154,"Unit 3, Piccadilly\nManchester",240000',
      '100023336956,"Flat 1, 10 Downing Street",1250000',
      '100023336957,"Flat 2, ""The Annexe"", 10 Downing Street",',
      '',
    ].join('\n'));
    const all = await runShell(['--csv', 'SELECT * FROM postcodes ORDER BY n'], env);
    const lines = all.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2501);
    expect(lines[2500]).toBe('AB02499,2499');
  });

  it('prints JSON as an array of objects with numbers kept as numbers', async () => {
    const r = await runShell(['--json', 'SELECT uprn, postcode, last_price, [1, 2] AS l, DATE \'2025-01-02\' AS d FROM properties ORDER BY uprn LIMIT 2'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { uprn: 10093609154, postcode: 'M1 1AE', last_price: 240000, l: [1, 2], d: '2025-01-02' },
      { uprn: 100023336956, postcode: 'SW1A 1AA', last_price: 1250000, l: [1, 2], d: '2025-01-02' },
    ]);
    const empty = await runShell(['--json', 'SELECT * FROM properties WHERE false'], { ...env });
    expect(JSON.parse(empty.stdout)).toEqual([]);
    const wide = await runShell(['--json', `SELECT 9007199254740993::BIGINT AS b, 1.50::DECIMAL(10,2) AS d, 1234567890123456.5::DECIMAL(20,1) AS w, {'k': 1, 'm': NULL} AS s, MAP {'x': 2} AS m, 'q"uote' AS "odd "" key"`], env);
    expect(JSON.parse(wide.stdout)).toEqual([{
      b: '9007199254740993', d: 1.5, w: '1234567890123456.5', s: { k: 1, m: null }, m: [{ key: 'x', value: 2 }], 'odd " key': 'q"uote',
    }]);
  });

  it('caps table output at 1,000 rows with a note, but not CSV', async () => {
    const r = await runShell(['SELECT * FROM postcodes ORDER BY n'], env);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2 + 1000 + 1);
    expect(lines[1001]).toBe('AB00999  | 999');
    expect(lines[1002]).toMatch(/^\(first 1,000 rows shown; add a LIMIT/);
  });

  it('runs several statements in order and prints each result', async () => {
    const r = await runShell(['--csv', 'CREATE TEMP TABLE x AS SELECT 41 AS v; SELECT v + 1 AS w FROM x; SELECT 7 AS z'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('w\n42\nz\n7\n');
  });

  it('exposes the manifest as a view and the build with .build', async () => {
    const r = await runShell(['--csv', 'SELECT build_id, tables.postcodes.rows AS n FROM manifest'], env);
    expect(r.stdout).toBe(`build_id,n\n${buildId},2500\n`);
    const b = await runShell(['.build'], env);
    expect(b.code).toBe(0);
    expect(b.stdout).toContain(`build ${buildId}\ncreated 2026-11-21T03:12:00Z\n`);
    expect(b.stdout).toContain('price-paid  as of 2025-10-31  (ppd/pp-2025.csv)');
  });

  it('reports an SQL error with DuckDB\'s message, no stack, exit 1', async () => {
    const r = await runShell(['SELECT nope FROM properties'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: Binder Error: Referenced column "nope" not found/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const syntax = await runShell(['SELEC 1'], env);
    expect(syntax.code).toBe(1);
    expect(syntax.stderr).toMatch(/^Error: Parser Error: syntax error at or near "SELEC"/);
  });

  it('runs an interactive session from piped stdin', async () => {
    const input = [
      '.tables',
      'SELECT postcode,',
      '       count(*) AS n   -- a comment; not the end',
      "FROM properties WHERE address <> 'x;y'",
      'GROUP BY postcode ORDER BY postcode;',
      'SELECT broken;',
      '.mode csv',
      'SELECT 1 AS one;',
      '.quit',
      'SELECT 2 AS never;',
    ].join('\n') + '\n';
    const r = await runShell([], env, input);
    expect(r.stdout).toBe([
      'properties  3 rows  properties.parquet  sorted by uprn',
      'postcodes  2,500 rows  postcodes.parquet  sorted by postcode',
      'manifest  (view over manifest.json)',
      'postcode | n',
      '---------+--',
      'M1 1AE   | 1',
      'SW1A 1AA | 2',
      '(2 rows)',
      'one',
      '1',
      '',
    ].join('\n'));
    expect(r.stderr).toMatch(/^Error: Binder Error: Referenced column "broken" was not found/);
    expect(r.code).toBe(1); // piped input with a failed statement: scripts can tell
  });

  it('interactive: .schema, bad meta commands, and a final statement without ;', async () => {
    const r = await runShell([], env, '.schema properties\n.schema nosuch\n.mode xml\n.frobnicate\nSELECT 5 AS five');
    expect(r.stdout).toContain('properties:\ncolumn_name | column_type | nullable\n');
    expect(r.stdout).toContain('uprn        | BIGINT      | YES');
    expect(r.stdout).toContain('address     | VARCHAR     | YES');
    expect(r.stdout).toMatch(/five\n-+\n {3}5\n\(1 row\)\n$/);
    expect(r.stderr).toBe([
      'Error: no table named nosuch (see .tables)',
      'Error: unknown mode xml: use table, csv or json',
      'Error: unknown command .frobnicate (try .help)',
      '',
    ].join('\n'));
    expect(r.code).toBe(1);
  });

  it('a clean piped session exits 0', async () => {
    const r = await runShell([], env, 'SELECT count(*) AS n FROM postcodes;\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2500');
  });

  it('honours --data-dir over DATA_DIR and rejects unknown options with usage', async () => {
    const r = await runShell(['--data-dir', tmp.dir, '--csv', 'SELECT count(*) AS n FROM properties'], { DATA_DIR: '/nonexistent' });
    expect(r.stdout).toBe('n\n3\n');
    const bad = await runShell(['--frobnicate'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown option --frobnicate');
    expect(bad.stderr).toContain('Usage: npm run --silent sql');
  });

  it('--out writes the result to its own file, clean even through npm run, whose banner goes to stdout', async () => {
    const file = join(tmp.dir, 'props.csv');
    const r = await new Promise<Ran>((res, rej) => {
      const child = spawn('npm', ['run', 'sql', '--', '--csv', '--out', file, 'SELECT uprn, postcode FROM properties ORDER BY uprn'], {
        cwd: join(import.meta.dirname, '../..'), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', rej);
      child.on('close', (code) => res({ code, stdout, stderr }));
    });
    expect(r.code, r.stderr).toBe(0);
    // npm's banner is what a `> file.csv` redirect would have caught.
    expect(r.stdout).toContain('> property-intelligence-api');
    expect(await readFile(file, 'utf8')).toBe('uprn,postcode\n10093609154,M1 1AE\n100023336956,SW1A 1AA\n100023336957,SW1A 1AA\n');
  });

  it('--out on a failing query leaves no file behind, and refuses a dot command', async () => {
    const file = join(tmp.dir, 'broken.csv');
    const r = await runShell(['--csv', '--out', file, 'SELECT no_such_column FROM properties'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: .*no_such_column/);
    expect((await readdir(tmp.dir)).filter((f) => f.startsWith('broken.csv'))).toEqual([]);
    const dot = await runShell(['--out', file, '.tables'], env);
    expect(dot.code).toBe(1);
    expect(dot.stderr).toContain('--out takes a query');
  });

  it('--help prints the usage on stdout and exits 0', async () => {
    const r = await runShell(['--help'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: npm run --silent sql');
    expect(r.stderr).toBe('');
  });
});

describe('npm run sql without a build', () => {
  it('says there is no published build and exits 1', async () => {
    const tmp = tempDir('pi-sql-empty-');
    try {
      const r = await runShell(['SELECT 1'], { DATA_DIR: tmp.dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`Error: no published build in ${tmp.dir} (${tmp.dir}/current is missing): run the ETL first (npm run etl -- run) or point --data-dir or DATA_DIR at a data folder\n`);
    } finally {
      tmp.cleanup();
    }
  });
});

describe('statementComplete', () => {
  it.each([
    ['SELECT 1;', true],
    ['SELECT 1', false],
    ['SELECT 1; -- done', true],
    ["SELECT ';'", false],
    ["SELECT 'it''s';", true],
    ['SELECT "a;b"', false],
    ['SELECT 1 /* ; */', false],
    ['SELECT 1 /* unterminated ;', false],
    ['-- only a comment;', false],
    ["SELECT 'open;", false],
  ])('%j → %s', (sql, complete) => {
    expect(statementComplete(sql)).toBe(complete);
  });
});
