import { z } from 'zod';
import {
  LISTING_STATUSES, ListingRemoveRow, ListingSendRow, listingPropertyType, PRICE_QUALIFIERS, TENURES, type ListingRow, type RentFrequency,
} from '../../../schemas/sources/listings.ts';
import { feedDateTime, joinPostcode, perMonth, text } from './fields.ts';
import { readSourceText } from '../io.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/** RTDF `rent_frequency`: payments a year. */
const RTDF_RENT_FREQUENCY: Record<number, RentFrequency> = { 1: 'yearly', 4: 'quarterly', 12: 'monthly', 52: 'weekly', 365: 'daily' };

/** The parts of an RTDF request the readers use; the rest of Rightmove's schema is not checked here. */
const RtdfRequest = z.object({
  network: z.object({ network_id: z.number().int() }),
  branch: z.object({ branch_id: z.number().int(), channel: z.number().int().optional() }),
  property: z.record(z.string(), z.unknown()).optional(),
});

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? text(v) : typeof v === 'number' ? String(v) : undefined);

/**
 * Reads a file of Rightmove Real Time Datafeed requests: one JSON request (as the samples
 * are) or a JSON array of them, in the order they were sent. A send property request
 * becomes a `send` row, a remove property request a `remove` row; any other request (a
 * GetBranchPropertyList, say) is counted as `not_a_property_request`. Invalid JSON fails the
 * file: there is no record boundary to resume from.
 */
export async function* readRightmoveRtdf(path: string, rejects: RejectLog): AsyncGenerator<ListingRow> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readSourceText(path));
  } catch (e) {
    throw new Error(`${path}: not a Rightmove RTDF request file (${(e as Error).message})`);
  }
  const requests = Array.isArray(doc) ? doc : [doc];
  for (let i = 0; i < requests.length; i++) {
    const row = rtdfRequest(requests[i], i + 1, rejects);
    if (row) yield row;
  }
}

/** One request → a row, or undefined with the reason counted. `n` is its 1-based position in the file. */
export function rtdfRequest(request: unknown, n: number, rejects: RejectLog): ListingRow | undefined {
  const parsed = RtdfRequest.safeParse(request);
  if (!parsed.success) {
    rejects.add(`invalid:${parsed.error.issues[0]?.path.join('.') || 'request'}`, n, parsed.error.issues[0]?.message);
    return undefined;
  }
  const { branch, property } = parsed.data;
  if (!property || typeof property.agent_ref !== 'string') {
    rejects.add('not_a_property_request', n, 'no property.agent_ref: not a send or remove property request');
    return undefined;
  }
  const branchId = String(branch.branch_id);
  const ref = property.agent_ref.trim();
  const base = { branch_id: branchId, agent_ref: ref, listing_id: `${branchId}:${ref}`, feed: 'rtdf' as const };
  const isSend = 'price_information' in property || 'address' in property || 'details' in property;
  if (!isSend) {
    return validateRow(ListingRemoveRow, {
      ...base, event: 'remove',
      updated_at: feedDateTime(str(property.transaction_date)),
      removal_reason: typeof property.removal_reason === 'number' ? property.removal_reason : undefined,
    }, rejects, n);
  }
  const address = obj(property.address);
  const priceInfo = obj(property.price_information);
  const details = obj(property.details);
  const channel = branch.channel === 1 ? 'sale' : branch.channel === 2 ? 'rent' : undefined;
  const price = priceInfo.price;
  let rentFrequency: RentFrequency | undefined;
  if (channel === 'rent') {
    const code = priceInfo.rent_frequency;
    rentFrequency = code === undefined || code === null ? 'monthly' : RTDF_RENT_FREQUENCY[Number(code)];
    if (!rentFrequency) {
      rejects.add('invalid:rent_frequency', n, `rent_frequency ${String(code)}`);
      return undefined;
    }
  }
  const typeCode = typeof property.property_type === 'number' ? property.property_type : NaN;
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return validateRow(ListingSendRow, {
    ...base,
    event: 'send',
    updated_at: feedDateTime(str(property.update_date) ?? str(property.create_date)),
    channel,
    status: typeof property.status === 'number' ? LISTING_STATUSES[property.status - 1] : undefined,
    published: property.published,
    created_at: feedDateTime(str(property.create_date)),
    address_1: str(address.house_name_number),
    address_2: str(address.address_2),
    address_3: str(address.address_3),
    address_4: str(address.address_4),
    town: str(address.town),
    postcode: joinPostcode(str(address.postcode_1), str(address.postcode_2)),
    display_address: str(address.display_address),
    lat: num(address.latitude),
    lng: num(address.longitude),
    price: typeof price === 'number' && rentFrequency ? perMonth(price, rentFrequency) : price,
    advertised_rent: rentFrequency ? price : undefined,
    rent_frequency: rentFrequency,
    price_qualifier: PRICE_QUALIFIERS[Number(priceInfo.price_qualifier ?? 0)],
    tenure: priceInfo.tenure_type == null ? undefined : TENURES[Number(priceInfo.tenure_type)] ?? String(priceInfo.tenure_type),
    bedrooms: details.bedrooms,
    property_type: Number.isFinite(typeCode) ? listingPropertyType(typeCode) : undefined,
    rightmove_type: Number.isFinite(typeCode) ? typeCode : undefined,
    new_home: typeof property.new_home === 'boolean' ? property.new_home : undefined,
  }, rejects, n);
}
