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
const bedrooms = qInt().min(0).max(20).optional();

export const AreaRentsQuerySchema = z.strictObject({ ...location, bedrooms }).superRefine(oneLocation());
export const YieldsQuerySchema = AreaRentsQuerySchema;

