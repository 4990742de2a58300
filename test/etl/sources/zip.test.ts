import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import yazl from 'yazl';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSources, sha256File } from '../../../etl/pipeline/discover.ts';
import { openSource } from '../../../etl/sources/io.ts';
import { SOURCES } from '../../../etl/sources/index.ts';
import { listZipMembers, openZipMember, zipMemberPath } from '../../../etl/sources/zip.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-zip-');
afterAll(tmp.cleanup);

type Member = { name: string; text?: string; dir?: boolean; stored?: boolean };

/** Writes a zip archive with yazl (as the generator does) and returns its path. */
async function zipOf(rel: string, members: Member[]): Promise<string> {
  const path = join(tmp.dir, rel);
  mkdirSync(join(path, '..'), { recursive: true });
  const zip = new yazl.ZipFile();
  for (const m of members) {
    if (m.dir) zip.addEmptyDirectory(m.name);
    else zip.addBuffer(Buffer.from(m.text ?? ''), m.name, { compress: !m.stored });
  }
  zip.end();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  await once(out, 'close');
  return path;
}

async function readAll(path: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of await openSource(path)) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const CERTS = 'LMK_KEY,ADDRESS1\n' + Array.from({ length: 5000 }, (_, i) => `K${i},${i} HIGH STREET\n`).join('');

describe('zip archive members', () => {
  it('splits a path that runs through an archive, and no other', async () => {
    const a = await zipOf('split/a.zip', [{ name: 'Data/x.csv', text: 'a\n' }]);
    expect(zipMemberPath(`${a}/Data/x.csv`)).toEqual({ archive: a, member: 'Data/x.csv' });
    mkdirSync(join(tmp.dir, 'split/folder.zip'), { recursive: true });
    expect(zipMemberPath(join(tmp.dir, 'split/folder.zip/x.csv'))).toBeUndefined(); // a folder so named is not an archive
    expect(zipMemberPath(join(tmp.dir, 'split/plain.csv'))).toBeUndefined();
  });

  it('lists the files (not the folders) and streams a member\'s bytes as they were put in', async () => {
    const a = await zipOf('read/b.zip', [{ name: 'Data/', dir: true }, { name: 'Data/certs.csv', text: CERTS }, { name: 'Docs/guide.txt', text: 'read me' }]);
    expect((await listZipMembers(a)).map((m) => m.member)).toEqual(['Data/certs.csv', 'Docs/guide.txt']);
    expect((await listZipMembers(a))[0]!.bytes).toBeLessThan(CERTS.length / 3); // deflated
    expect(await readAll(`${a}/Data/certs.csv`)).toBe(CERTS);
    expect(await readAll(`${a}/Docs/guide.txt`)).toBe('read me');
  });

  it('fails a member whose bytes no longer match its CRC-32, naming the archive and the member', async () => {
    // A stored member inflates without error whatever its bytes: only the CRC-32 catches the damage.
    const a = await zipOf('crc/c.zip', [{ name: 'certs.csv', text: CERTS, stored: true }]);
    const bytes = readFileSync(a);
    const at = bytes.indexOf('K2500,');
    bytes[at] = 'X'.charCodeAt(0);
    writeFileSync(a, bytes);
    await expect(readAll(`${a}/certs.csv`)).rejects.toThrow(/c\.zip: member certs\.csv is damaged \(CRC-32/);
  });

  it('fails clearly on a file that is not a zip archive, an archive cut short and a member it lacks', async () => {
    const notZip = join(tmp.dir, 'bad/not.zip');
    mkdirSync(join(notZip, '..'), { recursive: true });
    writeFileSync(notZip, 'LMK_KEY\nK1\n');
    await expect(listZipMembers(notZip)).rejects.toThrow(/not\.zip: not a readable zip archive/);
    const cut = await zipOf('bad/cut.zip', [{ name: 'certs.csv', text: CERTS }]);
    writeFileSync(cut, readFileSync(cut).subarray(0, 200));
    await expect(openZipMember(cut, 'certs.csv')).rejects.toThrow(/cut\.zip: not a readable zip archive/);
    const ok = await zipOf('bad/ok.zip', [{ name: 'certs.csv', text: CERTS }]);
    await expect(openZipMember(ok, 'other.csv')).rejects.toThrow(/ok\.zip: no member other\.csv/);
  });

  it('discovery lists an archive\'s members as source files of its folder, and ignores what is not a source', async () => {
    const root = join(tmp.dir, 'sources');
    const prev = tmp.dir;
    const rel = (p: string) => join(root, p).slice(prev.length + 1);
    await zipOf(rel('epc/all-domestic-certificates.zip'), [
      { name: 'domestic-E06000023-Bristol/certificates.csv', text: CERTS },
      { name: 'domestic-E06000023-Bristol/recommendations_rr.csv', text: 'LMK_KEY\n' },
      { name: 'LICENCE.txt', text: 'OGL' },
    ]);
    await zipOf(rel('postcodes/onspd.zip'), [{ name: 'Data/ONSPD_AUG_2025_UK.csv', text: 'pcd7,pcd8,pcds\n' }, { name: 'User Guide/guide.pdf', text: '%PDF' }]);
    const { files, ignored } = await discoverSources(root, SOURCES);
    expect(files.map((f) => [f.rel, f.kind])).toEqual([
      ['epc/all-domestic-certificates.zip/domestic-E06000023-Bristol/certificates.csv', 'epc'],
      ['postcodes/onspd.zip/Data/ONSPD_AUG_2025_UK.csv', 'onspd'],
    ]);
    expect(ignored.map((f) => f.rel).sort()).toEqual([
      'epc/all-domestic-certificates.zip/LICENCE.txt',
      'epc/all-domestic-certificates.zip/domestic-E06000023-Bristol/recommendations_rr.csv',
      'postcodes/onspd.zip/User Guide/guide.pdf',
    ]);
  });

  it('a discovery of an archive that cannot be read fails, naming it (its source would otherwise be missing from the build)', async () => {
    const root = join(tmp.dir, 'sources-bad');
    mkdirSync(join(root, 'uprn'), { recursive: true });
    writeFileSync(join(root, 'uprn', 'osopenuprn.zip'), 'not a zip');
    await expect(discoverSources(root, SOURCES)).rejects.toThrow(/osopenuprn\.zip: not a readable zip archive/);
  });

  it('a member\'s SHA-256 follows its archive\'s bytes and its name', async () => {
    const a = await zipOf('hash/h.zip', [{ name: 'one.csv', text: 'a\n' }, { name: 'two.csv', text: 'a\n' }]);
    const one = await sha256File(`${a}/one.csv`);
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(await sha256File(`${a}/two.csv`)).not.toBe(one);
    await zipOf('hash/h.zip', [{ name: 'one.csv', text: 'b\n' }, { name: 'two.csv', text: 'a\n' }]);
    expect(await sha256File(`${a}/one.csv`)).not.toBe(one);
  });
});
