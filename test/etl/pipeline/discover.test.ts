import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSources, sha256File } from '../../../etl/pipeline/discover.ts';
import { SOURCES } from '../../../etl/sources/index.ts';
import { hasRaw, RAW_DIR } from '../../support/raw.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

function put(rel: string, content: string, gzip = false): void {
  mkdirSync(join(tmp.dir, rel, '..'), { recursive: true });
  writeFixture(tmp.dir, rel, content, gzip);
}

describe('discoverSources', () => {
  it('classifies by folder and by first line, and accounts for every other file', async () => {
    put('addressbase/addressbase-core.csv', 'UPRN,PARENT_UPRN\n');
    put('uprn/osopenuprn.csv', 'UPRN,X_COORDINATE\n');
    put('postcodes/onspd.csv', 'pcd7,pcd8,pcds\n');
    put('postcodes/codepoint/bs.csv', '"BS1 1AA",10,358000,172000,"E92000001"\r\n');
    put('postcodes/names/HY20.csv', 'id,names_uri\n');
    put('epc/certificates.csv', 'LMK_KEY\n');
    put('epc/recommendations_rr.csv', 'LMK_KEY\n');
    // The Scottish register's extract, either header row first (the descriptive one has a BOM here).
    put('epc/scotland/D_EPC_data_a.csv', '\uFEFFProperty_UPRN,OSG_UPRN,Postcode\nBUILDING_REFERENCE_NUMBER,OSG_REFERENCE_NUMBER,POSTCODE\n');
    put('epc/scotland/D_EPC_data_b.csv', 'BUILDING_REFERENCE_NUMBER,OSG_REFERENCE_NUMBER,POSTCODE\n');
    put('ppd/pp-complete.csv', '"{X}","1"\n');
    put('airbnb/listings.csv.gz', 'id,listing_url\n', true);
    put('airbnb/listings.csv', 'id,name\n');
    put('airbnb/calendar.csv.gz', 'listing_id,date\n', true);
    put('airbnb/reviews.csv.gz', 'listing_id,id\n', true);
    put('planning/flood-risk-zone.geojson', '{}');
    put('hpi/UK-HPI-full-file.csv', 'Date,RegionName,AreaCode\n');
    put('rents/ons-prms.csv', 'LA Code1,Area Code1,Area,Bedroom Category\n');
    put('rents/rental-evidence.csv', 'evidence_id,let_date\n');
    put('rents/other.csv', 'x,y\n');
    put('truth/sales.csv', 'a\n');
    put('manifest.json', '{}');
    const { files, ignored } = await discoverSources(tmp.dir, SOURCES);
    expect(Object.fromEntries(files.map((f) => [f.rel, f.kind]))).toEqual({
      'addressbase/addressbase-core.csv': 'addressbase',
      'airbnb/calendar.csv.gz': 'airbnb_calendar',
      'airbnb/listings.csv.gz': 'airbnb_listings',
      'airbnb/reviews.csv.gz': 'airbnb_reviews',
      'epc/certificates.csv': 'epc',
      'epc/scotland/D_EPC_data_a.csv': 'epc_scotland',
      'epc/scotland/D_EPC_data_b.csv': 'epc_scotland',
      'hpi/UK-HPI-full-file.csv': 'ukhpi',
      'planning/flood-risk-zone.geojson': 'planning',
      'postcodes/codepoint/bs.csv': 'codepoint',
      'postcodes/onspd.csv': 'onspd',
      'ppd/pp-complete.csv': 'price_paid',
      'rents/ons-prms.csv': 'ons_rents',
      'rents/rental-evidence.csv': 'rental_evidence',
      'uprn/osopenuprn.csv': 'os_uprn',
    });
    expect(Object.fromEntries(ignored.map((f) => [f.rel, f.reason]))).toEqual({
      'airbnb/listings.csv': 'summary listings beside a detailed listings file',
      'epc/recommendations_rr.csv': 'EPC recommendations, not certificates',
      'manifest.json': 'documentation',
      'postcodes/names/HY20.csv': 'not ONSPD or Code-Point Open',
      'rents/other.csv': 'unknown rents layout',
      'truth/sales.csv': 'not a source folder',
    });
  });

  it('gives every other file the reason its folder\'s sources give', async () => {
    const dir = join(tmp.dir, 'reasons');
    const at = (rel: string, content: string) => {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFixture(dir, rel, content);
    };
    at('airbnb/neighbourhoods.csv', 'neighbourhood_group,neighbourhood\n');
    at('airbnb/notes.txt', 'x');
    at('postcodes/doc/ONSPD_user_guide.csv', 'pcds,x\n');
    at('planning/flood-risk-zone.csv', 'a\n');
    at('crime/2024-01-avon-and-somerset-outcomes.csv', 'Crime ID\n');
    at('listings/rtdf-schema.json', '{}');
    at('listings/feed.txt', 'x');
    at('gias/links.csv', 'URN,LinkURN\n');
    at('hpi/other.csv', 'a,b\n');
    at('elsewhere/data.csv', 'a\n');
    at('elsewhere/data.xlsx', 'a');
    const { files, ignored } = await discoverSources(dir, SOURCES);
    expect(files).toEqual([]);
    expect(Object.fromEntries(ignored.map((f) => [f.rel, f.reason]))).toEqual({
      'airbnb/neighbourhoods.csv': 'unknown Inside Airbnb file',
      'airbnb/notes.txt': 'not a CSV file',
      'crime/2024-01-avon-and-somerset-outcomes.csv': 'not a police.uk street-level crime file',
      'elsewhere/data.csv': 'no source kind for folder elsewhere',
      'elsewhere/data.xlsx': 'not a CSV file',
      'gias/links.csv': 'not a GIAS establishments extract (the links extract, say)',
      'hpi/other.csv': 'not a UK HPI full file or app download',
      'listings/feed.txt': 'not a Rightmove BLM or RTDF file',
      'listings/rtdf-schema.json': 'a JSON Schema, not listings',
      'planning/flood-risk-zone.csv': 'not GeoJSON',
      'postcodes/doc/ONSPD_user_guide.csv': 'documentation',
    });
  });

  it('knows only the sources it is handed: a new kind is one registry entry', async () => {
    const dir = join(tmp.dir, 'registry');
    mkdirSync(join(dir, 'ppd'), { recursive: true });
    mkdirSync(join(dir, 'epc'), { recursive: true });
    writeFixture(dir, 'ppd/pp-2024.csv', '"{X}","1"\n');
    writeFixture(dir, 'epc/certificates.csv', 'LMK_KEY\n');
    const heads: string[] = [];
    const extra = {
      ...SOURCES.find((s) => s.kind === 'price_paid')!,
      kind: 'ppd_extra',
      // Asks for the first line twice (discovery reads it once, lower-cased).
      sniff: async (f: { head(): Promise<string> }) => {
        heads.push(await f.head(), await f.head());
        return true as const;
      },
    };
    const { files, ignored } = await discoverSources(dir, [extra]);
    expect(files.map((f) => [f.rel, f.kind])).toEqual([['ppd/pp-2024.csv', 'ppd_extra']]);
    expect(heads).toEqual(['"{x}","1"', '"{x}","1"']);
    expect(ignored).toEqual([{ rel: 'epc/certificates.csv', reason: 'no source kind for folder epc' }]);
  });

  it('hashes the stored bytes', async () => {
    put('h.csv', 'abc');
    expect(await sha256File(join(tmp.dir, 'h.csv'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe.skipIf(!hasRaw('SOURCES.md'))('discoverSources on the shared real samples', () => {
  it('finds every sample format and names a reason for each file it does not read', async () => {
    const { files, ignored } = await discoverSources(RAW_DIR, SOURCES);
    const count = (k: string) => files.filter((f) => f.kind === k).length;
    expect(count('price_paid')).toBe(4);
    expect(count('codepoint')).toBe(2);
    expect(count('onspd')).toBe(1);
    expect(count('airbnb_listings')).toBe(1);
    expect(count('airbnb_calendar')).toBe(1);
    expect(count('airbnb_reviews')).toBe(1);
    expect(count('epc')).toBe(4);
    expect(count('planning')).toBe(2);
    expect(count('ukhpi')).toBe(4);
    expect(count('hmo_register')).toBe(3); // Oxford's register and exemptions, Sheffield's register
    expect(count('police_crime')).toBe(3);
    expect(count('gias_schools')).toBe(1);
    // The BLM file and Rightmove's three sample requests (the branch list request is counted as a reject when read).
    expect(count('listings')).toBe(4);
    expect(ignored.find((i) => i.rel.endsWith('links_edubasealldata20250422.csv'))?.reason).toMatch(/not a GIAS establishments extract/);
    expect(ignored.find((i) => i.rel.endsWith('SendPropertyDetailsRequestSchema.json'))?.reason).toBe('a JSON Schema, not listings');
    expect(ignored.every((i) => i.reason.length > 0)).toBe(true);
    expect(ignored.map((i) => i.rel)).toContain('airbnb/bristol_2025-09-26/listings.csv');
  });
});
