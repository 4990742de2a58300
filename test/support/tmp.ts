import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** A fresh temporary directory and a cleanup function. */
export function tempDir(prefix = 'pi-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a fixture file (optionally gzipped) and returns its path. */
export function writeFixture(dir: string, name: string, content: string | Buffer, gzip = false): string {
  const p = join(dir, name);
  const buf = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  writeFileSync(p, gzip ? gzipSync(buf) : buf);
  return p;
}
