/**
 * Request schemas of the area and listing endpoints (DESIGN.md §6, not in the spec):
 * each takes its location in exactly one way plus a few filters. Response shapes are
 * fixed when the endpoints are built.
 */
import { z } from 'zod';
import { Lat, Lng, Outcode, PageSize, Page, PostcodeOrSector, Postcode, PROPERTY_KIND, Uprn, oneLocation, qInt, qNum } from './common.ts';

const location = {
  postcode: PostcodeOrSector.optional(),
  outcode: Outcode.optional(),
  lat: Lat.optional(),
  lng: Lng.optional(),
};
const radius = (dflt: number, max: number) =>
  qNum().positive().max(max).optional().meta({ description: `Metres around lat,lng; default ${dflt}, at most ${max}.` });


export const HmoLicencesQuerySchema = z.strictObject({ ...location, radius_m: radius(1_000, 5_000), page: Page, page_size: PageSize(25, 100) }).superRefine(oneLocation());
