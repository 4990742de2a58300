/**
 * The open-data address base on real rows (issue 47): the linked Price Paid and EPC sample in
 * ../shared/data/raw/_derived_not_original (1,000 real sales, each linked by the UCL/Kaggle
 * linkage to the certificate of the home it sold, with that certificate's UPRN) written as the
 * published files an operator without AddressBase has (certificates, OS Open UPRN points,
 * Price Paid), built by the real ETL. Every sale the build gives a UPRN must get the UPRN its
 * linked certificate names: zero wrong UPRNs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../etl/pipeline/run.ts';
import { wgs84ToBng } from '../../etl/sources/grid.ts';
import { quietLog } from '../support/region.ts';
import { hasRaw, rawPath } from '../support/raw.ts';
import { tempDir } from '../support/tmp.ts';

const LINKED = '_derived_not_original/linked_ppd_epc_full_first_1000.csv';
const PPD = ['transactionid', 'price', 'dateoftransfer', 'propertytype', 'oldnew', 'duration', 'paon', 'saon', 'street', 'locality', 'towncity', 'district', 'categorytype', 'recordstatus'];
const EPC_LAST = 'lodgement_datetime';
const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;

describe.skipIf(!hasRaw(LINKED))('open-data build on the real linked Price Paid and EPC sample', () => {
  const tmp = tempDir('pi-open-real-');
  afterAll(() => tmp.cleanup());

  it('gives no sale a wrong UPRN', async () => {
    const rows = parse(readFileSync(rawPath(LINKED)), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
    const src = join(tmp.dir, 'sources');
    for (const d of ['epc', 'uprn', 'ppd']) mkdirSync(join(src, d), { recursive: true });
    // Certificates in the bulk file's form: its own columns, upper-cased, as the register writes them.
    const header = Object.keys(rows[0]!);
    const epcCols = header.slice(header.indexOf('lmk_key'), header.indexOf('longitude')).filter((c) => c !== EPC_LAST);
    writeFileSync(join(src, 'epc', 'certificates.csv'), [epcCols.map((c) => c.toUpperCase()).join(','), ...rows.map((r) => epcCols.map((c) => quote(r[c] ?? '')).join(','))].join('\n') + '\n');
    // OS Open UPRN: the linked UPRNs' points.
    const points = new Map<string, string>();
    for (const r of rows) {
      if (!r.uprn || !r.latitude || !r.longitude) continue;
      const { easting, northing } = wgs84ToBng(Number(r.latitude), Number(r.longitude));
      points.set(r.uprn, `${r.uprn},${easting.toFixed(2)},${northing.toFixed(2)},${r.latitude},${r.longitude}`);
    }
    writeFileSync(join(src, 'uprn', 'osopenuprn.csv'), ['UPRN,X_COORDINATE,Y_COORDINATE,LATITUDE,LONGITUDE', ...points.values()].join('\n') + '\n');
    // Price Paid in the bulk form (headerless, 16 columns); the sample has no postcode of its own: the linked certificate's.
    writeFileSync(join(src, 'ppd', 'pp-complete.csv'), rows.map((r) => {
      const f = PPD.map((c) => r[c] ?? '');
      return [f[0], f[1], `${f[2]} 00:00`, r.postcode ?? '', f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], '', f[12], f[13]].map((v) => quote(v ?? '')).join(',');
    }).join('\n') + '\n');

    const { manifest, build_id } = await runBuild({ dataDir: join(tmp.dir, 'data'), sourcesDir: src, log: quietLog, now: new Date('2025-10-01T00:00:00Z') });
    expect(manifest.quality.address_source).toMatchObject({ kind: 'open_data' });
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    const matched = (await conn.runAndReadAll(`SELECT transaction_id, uprn FROM '${join(tmp.dir, 'data', 'builds', build_id, 'sales.parquet')}'`)).getRowObjectsJson();
    conn.closeSync();
    const linked = new Map(rows.map((r) => [r.transactionid!.replace(/[{}]/g, '').toUpperCase(), r.uprn]));
    const wrong = matched.filter((m) => linked.get(String(m.transaction_id).replace(/[{}]/g, '').toUpperCase()) !== String(m.uprn));
    process.stdout.write(`open data on the real linked sample: ${matched.length} of ${rows.length} sales given a UPRN, ${wrong.length} wrong\n`);
    expect(wrong).toEqual([]);
    // Most sales find their home: each has a certificate with its UPRN, here.
    expect(matched.length).toBeGreaterThan(0.8 * rows.length);
  }, 180_000);
});
