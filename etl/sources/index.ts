import { addressbase, codepoint, onspd, osUprn } from './addresses.ts';
import { hmoRegister, onsRents, planning, rentalEvidence, ukhpi } from './market.ts';
import { giasSchools, listings, policeCrime } from './location.ts';
import { epc, epcScotland, pricePaid } from './property.ts';
import type { StagingSpec } from './spec.ts';
import { airbnbCalendar, airbnbListings, airbnbReviews } from './str.ts';

/** Every staged source, in the order they are read. */
export const STAGING_SPECS: readonly StagingSpec<unknown>[] = [
  addressbase, osUprn, onspd, codepoint, epc, epcScotland, pricePaid, airbnbListings, airbnbCalendar, airbnbReviews,
  planning, ukhpi, onsRents, rentalEvidence, hmoRegister, policeCrime, giasSchools, listings,
];
