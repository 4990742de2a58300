import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeFingerprint } from '../../../etl/pipeline/code-fingerprint.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-fingerprint-');
afterAll(tmp.cleanup);

describe('codeFingerprint', () => {
  it('changes with the entry, what it imports transitively and the SQL beside it, not with other files', () => {
    const f = (name: string, text: string) => writeFileSync(join(tmp.dir, name), text);
    f('entry.ts', "import { b } from './b.ts';\nexport const a = b;\n");
    f('b.ts', "export { c as b } from './c.ts';\n");
    f('c.ts', 'export const c = 1;\n');
    f('q.sql', 'SELECT 1');
    f('other.ts', 'export const o = 1;\n');
    const entry = [join(tmp.dir, 'entry.ts')];
    const first = codeFingerprint(entry);
    expect(codeFingerprint(entry)).toBe(first);
    f('other.ts', 'export const o = 2;\n');
    expect(codeFingerprint(entry)).toBe(first);
    f('c.ts', 'export const c = 2;\n');
    const second = codeFingerprint(entry);
    expect(second).not.toBe(first);
    f('q.sql', 'SELECT 2');
    expect(codeFingerprint(entry)).not.toBe(second);
  });

  it('changes with the SQL beside a module the entry imports from another folder', () => {
    const dir = join(tmp.dir, 'nested');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'entry.ts'), "import { d } from './sub/d.ts';\nexport const a = d;\n");
    writeFileSync(join(dir, 'sub', 'd.ts'), 'export const d = 1;\n');
    writeFileSync(join(dir, 'sub', 'check.sql'), 'SELECT 1');
    const entry = [join(dir, 'entry.ts')];
    const seen: string[] = [];
    const first = codeFingerprint(entry, seen);
    expect(seen.filter((p) => p.endsWith('.sql')).map((p) => p.slice(dir.length))).toEqual(['/sub/check.sql']);
    writeFileSync(join(dir, 'sub', 'check.sql'), 'SELECT 2');
    expect(codeFingerprint(entry)).not.toBe(first);
  });

  it('covers every reader the staging stage uses', () => {
    // The staging code's fingerprint walks from stage-sources.ts through the registry to each reader.
    const seen: string[] = [];
    const spy = codeFingerprint([join(import.meta.dirname, '../../../etl/stages/10-staging/10-stage-sources/stage-sources.ts')], seen);
    expect(spy).toMatch(/^[0-9a-f]{64}$/);
    for (const reader of ['price_paid/read.ts', 'epc/read.ts', 'addressbase/read.ts', 'police_crime/read.ts', 'airbnb_calendar/read.ts']) {
      expect(seen.some((p) => p.endsWith(`etl/sources/${reader}`)), reader).toBe(true);
    }
    // And the native path's SQL: beside stage-native.ts, and each kind's in its source's folder.
    for (const sql of ['sources/epc/native_check.sql', 'sources/epc_scotland/native_candidates.sql', 'native/native_raw_read.sql']) {
      expect(seen.some((p) => p.endsWith(sql)), sql).toBe(true);
    }
  });
});
