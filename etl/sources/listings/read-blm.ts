import { createInterface } from 'node:readline';
import {
  BLM_REQUIRED, LISTING_STATUSES, ListingSendRow, listingPropertyType, PRICE_QUALIFIERS, TENURES, type RentFrequency,
} from '../../../schemas/sources/listings.ts';
import { feedDateTime, feedPrice, joinPostcode, perMonth, tenureFromFeatures, text } from './fields.ts';
import { openSource } from '../io.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/** BLM LET_RENT_FREQUENCY codes (5, per person per week, cannot be made a rent for the property). */
const BLM_RENT_FREQUENCY: Record<string, RentFrequency> = { '0': 'weekly', '1': 'monthly', '2': 'quarterly', '3': 'yearly' };

/** `EOF : '|'` → `|`: a header value with its quotes removed. */
function headerValue(line: string): [string, string] | undefined {
  const m = /^\s*([A-Za-z ]+?)\s*:\s*(.*?)\s*$/.exec(line);
  if (!m) return undefined;
  return [m[1]!.toUpperCase(), m[2]!.replace(/^'(.*)'$/, '$1').replace(/^"(.*)"$/, '$1')];
}

/**
 * Streams a Rightmove BLM (v3) bulk file. The field and record separators are the ones
 * its `#HEADER#` declares (`EOF`, `EOR`; the shared sample uses `|` where most feeds use
 * `^`). A record may span lines (descriptions with line breaks): it ends at the EOR. A
 * record ending in a separator before its EOR has one empty field more than the
 * definition, which is allowed; any other count is `wrong_field_count`. A BLM file is a
 * branch's full list of live listings, so every record is a `send`.
 */
export async function* readRightmoveBlm(path: string, rejects: RejectLog): AsyncGenerator<ListingSendRow> {
  const lines = createInterface({ input: await openSource(path), crlfDelay: Infinity });
  let section = '';
  let eof = '^';
  let eor = '~';
  let defs: string[] | undefined;
  let pending = '';
  let pendingLine = 0;
  let lineNo = 0;
  let ended = false;
  for await (const raw of lines) {
    lineNo++;
    const line = lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    const marker = /^\s*#(HEADER|DEFINITION|DATA|END)#\s*$/i.exec(line);
    if (marker && pending === '') {
      section = marker[1]!.toUpperCase();
      if (section === 'DATA' && !defs) throw new Error(`${path}: BLM #DATA# before its #DEFINITION#`);
      if (section === 'END') ended = true;
      continue;
    }
    if (section === 'HEADER') {
      const kv = headerValue(line);
      if (kv?.[0] === 'EOF') eof = kv[1];
      if (kv?.[0] === 'EOR') eor = kv[1];
      continue;
    }
    if (section === 'DEFINITION') {
      if (line.trim() === '') continue;
      const names = line.trim().replace(new RegExp(`${escape(eor)}$`), '').split(eof).map((s) => s.trim());
      if (names.at(-1) === '') names.pop();
      const missing = BLM_REQUIRED.filter((n) => !names.includes(n));
      if (missing.length > 0) throw new Error(`${path}: not a Rightmove BLM file (no ${missing.join(', ')} field)`);
      defs = names;
      continue;
    }
    if (section !== 'DATA') {
      if (section === '' && line.trim() !== '') throw new Error(`${path}: not a Rightmove BLM file (no #HEADER#)`);
      continue;
    }
    if (pending === '') {
      if (line.trim() === '') continue;
      pendingLine = lineNo;
    } else pending += '\n';
    pending += line;
    if (!pending.trimEnd().endsWith(eor)) continue;
    const record = pending.trimEnd().slice(0, -eor.length);
    pending = '';
    const row = blmRecord(record.split(eof), defs!, pendingLine, rejects);
    if (row) yield row;
  }
  if (pending !== '') rejects.add('unterminated_record', pendingLine, `no ${eor} before the end of the file`);
  if (!defs) throw new Error(`${path}: not a Rightmove BLM file (no #DEFINITION#)`);
  if (!ended) rejects.add('no_end_marker', lineNo, 'file ends without #END#: it may be truncated');
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function blmRecord(fields: string[], defs: string[], line: number, rejects: RejectLog): ListingSendRow | undefined {
  // The sample's records end `…|~`: one empty field past the definition.
  if (fields.length === defs.length + 1 && fields.at(-1)!.trim() === '') fields.pop();
  if (fields.length !== defs.length) {
    rejects.add('wrong_field_count', line, `${fields.length} fields, ${defs.length} defined`);
    return undefined;
  }
  const get = (name: string) => {
    const i = defs.indexOf(name);
    return i < 0 ? undefined : fields[i];
  };
  const channel = { '1': 'sale', '2': 'rent' }[get('TRANS_TYPE_ID')!.trim()];
  const price = feedPrice(get('PRICE'));
  let rentFrequency: RentFrequency | undefined;
  if (channel === 'rent') {
    const code = get('LET_RENT_FREQUENCY')?.trim() ?? '';
    rentFrequency = BLM_RENT_FREQUENCY[code === '' ? '1' : code];
    if (!rentFrequency) {
      rejects.add('rent_per_person', line, `LET_RENT_FREQUENCY ${code}: a rent per person cannot be made the property's`);
      return undefined;
    }
  }
  const branch = text(get('BRANCH_ID'));
  const ref = text(get('AGENT_REF'));
  const typeCode = Number(get('PROP_SUB_ID')?.trim() || 0);
  const qualifier = PRICE_QUALIFIERS[Number(get('PRICE_QUALIFIER') ?? 0)];
  const tenureCode = text(get('TENURE_TYPE_ID'));
  const coordinate = (name: string) => { const t = text(get(name)); return t === undefined ? undefined : Number(t); };
  return validateRow(ListingSendRow, {
    feed: 'blm',
    branch_id: branch,
    agent_ref: ref,
    listing_id: `${branch}:${ref}`,
    event: 'send',
    updated_at: feedDateTime(get('UPDATE_DATE')),
    channel,
    status: LISTING_STATUSES[Number(get('STATUS_ID')?.trim() || NaN)],
    published: { '1': true, '0': false }[get('PUBLISHED_FLAG')!.trim()],
    created_at: feedDateTime(get('CREATE_DATE')),
    address_1: text(get('ADDRESS_1')),
    address_2: text(get('ADDRESS_2')),
    address_3: text(get('ADDRESS_3')),
    address_4: text(get('ADDRESS_4')),
    town: text(get('TOWN')),
    postcode: joinPostcode(get('POSTCODE1'), get('POSTCODE2')),
    display_address: text(get('DISPLAY_ADDRESS')),
    lat: coordinate('LATITUDE'),
    lng: coordinate('LONGITUDE'),
    price: typeof price === 'number' && rentFrequency ? perMonth(price, rentFrequency) : price,
    advertised_rent: rentFrequency ? price : undefined,
    rent_frequency: rentFrequency,
    price_qualifier: qualifier,
    tenure: tenureCode ? TENURES[Number(tenureCode)] ?? tenureCode : tenureFromFeatures(['1', '2', '3', '4', '5'].map((n) => get(`FEATURE${n}`))),
    bedrooms: Number(get('BEDROOMS')?.trim() || NaN),
    property_type: listingPropertyType(typeCode),
    rightmove_type: typeCode,
    new_home: { Y: true, N: false }[get('NEW_HOME_FLAG')?.trim().toUpperCase() ?? ''],
  }, rejects, line);
}
