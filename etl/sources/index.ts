import { addressbase } from './addressbase/source.ts';
import { airbnbCalendar } from './airbnb_calendar/source.ts';
import { airbnbListings } from './airbnb_listings/source.ts';
import { airbnbReviews } from './airbnb_reviews/source.ts';
import { codepoint } from './codepoint/source.ts';
import { epc } from './epc/source.ts';
import { epcScotland } from './epc_scotland/source.ts';
import { giasSchools } from './gias_schools/source.ts';
import { hmoRegister } from './hmo_register/source.ts';
import { listings } from './listings/source.ts';
import { onsRents } from './ons_rents/source.ts';
import { onspd } from './onspd/source.ts';
import { osUprn } from './os_uprn/source.ts';
import { planning } from './planning/source.ts';
import { policeCrime } from './police_crime/source.ts';
import { pricePaid } from './price_paid/source.ts';
import { rentalEvidence } from './rental_evidence/source.ts';
import { ukhpi } from './ukhpi/source.ts';

export type { AnySource, Source, SniffedFile, Sniff } from './source.ts';

/**
 * The registry: every kind of source file the ETL reads, in the order they are staged (and
 * sniffed, where several share a folder). Staging reads it directly; the engine learns it
 * from the staging stage's `sources` (etl/pipeline/context.ts), so `etl/pipeline/` imports
 * only this module's types. docs/etl.md, "Adding a source".
 */
export const SOURCES = [
  addressbase, osUprn, onspd, codepoint, epc, epcScotland, pricePaid, airbnbListings, airbnbCalendar, airbnbReviews,
  planning, ukhpi, onsRents, rentalEvidence, hmoRegister, policeCrime, giasSchools, listings,
] as const;

/** Every kind of source file the ETL reads. */
export type SourceKind = (typeof SOURCES)[number]['kind'];
export const SOURCE_KINDS: readonly SourceKind[] = SOURCES.map((s) => s.kind);
