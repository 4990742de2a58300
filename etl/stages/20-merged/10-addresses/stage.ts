import type { BuildContext, Stage } from '../../../pipeline/context.ts';
import { appendRows, createTable } from '../../../pipeline/load-rows.ts';
import { countRows, queryRows, sqlFolder } from '../../../pipeline/sql.ts';
import { streamColumns } from '../../30-serving/stream-columns.ts';
import { openAddress, type OpenAddressFields } from './open-address.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/**
 * The canonical address of every UPRN, with location and postcode geography: from the
 * AddressBase file when the sources have one, else assembled from open data (ADR 0001,
 * docs/open-data.md): each UPRN's newest well-formed energy certificate, OS Open UPRN's
 * point, the postcode directory's geography. The manifest says which (`quality.address_source`).
 */
export const addressesStage: Stage = {
  name: 'addresses',
  description: 'one row per address-base UPRN (AddressBase, else certificates and OS Open UPRN) with coordinates, postcode geography, country and local authority',
  reads: ['stg_addressbase', 'stg_os_uprn', 'stg_onspd', 'stg_epc'],
  writes: ['addresses', 'address_aliases'],
  reuse: { today: false },
  async run(ctx) {
    const fromAddressBase = (await countRows(ctx.conn, 'stg_addressbase')) > 0;
    if (fromAddressBase) {
      await sql.run(ctx.conn, 'addresses');
      await createTable(ctx.conn, 'address_aliases', ALIAS_COLUMNS);
      ctx.quality.address_source = { kind: 'addressbase', uprns_with_address: await countRows(ctx.conn, 'addresses') };
    } else {
      await openDataAddresses(ctx);
      const [c] = await queryRows(ctx.conn, sql.text('addresses_open_coverage'));
      ctx.quality.address_source = {
        kind: 'open_data',
        from: 'energy certificates (newest well-formed one per UPRN), OS Open UPRN points, ONSPD geography',
        ...Object.fromEntries(Object.entries(c ?? {}).map(([k, v]) => [k, Number(v)])),
      };
      ctx.log.info({ stage: 'addresses', ...(ctx.quality.address_source as object) }, 'no AddressBase file: addresses assembled from open data');
    }
    ctx.quality.addresses = await countRows(ctx.conn, 'addresses');
  },
};

const ALIAS_COLUMNS = [{ name: 'uprn', type: 'BIGINT' }, { name: 'alias', type: 'VARCHAR' }] as const;
const FIELD_COLUMNS = [
  { name: 'uprn', type: 'BIGINT' }, { name: 'address', type: 'VARCHAR' }, { name: 'sub_building', type: 'VARCHAR' }, { name: 'building_name', type: 'VARCHAR' },
  { name: 'building_number', type: 'VARCHAR' }, { name: 'street_name', type: 'VARCHAR' }, { name: 'locality', type: 'VARCHAR' }, { name: 'post_town', type: 'VARCHAR' },
  { name: 'postcode', type: 'VARCHAR' },
] as const;
type Fields = OpenAddressFields & { uprn: bigint; postcode: string };

/** Parses each UPRN's newest certificate into the address base, its other wordings into aliases. */
async function openDataAddresses(ctx: BuildContext): Promise<void> {
  await sql.run(ctx.conn, 'addresses_open_certs');
  await createTable(ctx.conn, 'open_address_fields', FIELD_COLUMNS);
  await createTable(ctx.conn, 'address_aliases', ALIAS_COLUMNS);
  // A UPRN's rows arrive together, newest first: its first row is its address, the rest variants.
  let current: { uprn: bigint; address: string } | null = null;
  for await (const { rows, columns: [uprn, rank, a1, a2, a3, postcode, posttown] } of streamColumns(ctx.db, sql.text('addresses_open_lines'))) {
    const fields: Fields[] = [];
    const aliases: { uprn: bigint; alias: string }[] = [];
    for (let i = 0; i < rows; i++) {
      const u = uprn![i] as bigint;
      const f = openAddress([a1![i] as string | null, a2![i] as string | null, a3![i] as string | null], posttown![i] as string | null, String(postcode![i]));
      if (Number(rank![i]) === 1) {
        current = { uprn: u, address: f.address };
        fields.push({ ...f, uprn: u, postcode: String(postcode![i]) });
      } else if (current?.uprn === u && current.address !== f.address) aliases.push({ uprn: u, alias: f.address });
    }
    await appendRows(ctx.conn, 'open_address_fields', FIELD_COLUMNS.map((c) => ({ ...c, get: (r: Fields) => r[c.name as keyof Fields] })), fields);
    await appendRows(ctx.conn, 'address_aliases', ALIAS_COLUMNS.map((c) => ({ ...c, get: (r: { uprn: bigint; alias: string }) => r[c.name] })), aliases);
  }
  await sql.run(ctx.conn, 'addresses_open');
  await ctx.conn.run('DROP TABLE open_address_fields');
}
