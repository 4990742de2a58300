import type { Stage } from './context.ts';
import { stageSourcesStage } from '../stages/10-staging/10-stage-sources/stage.ts';
import { pricePaidCurrentStage } from '../stages/10-staging/20-price-paid-current/stage.ts';
import { addressesStage } from '../stages/20-merged/10-addresses/stage.ts';
import { matchAddresses } from '../stages/20-merged/20-match-addresses/stage.ts';
import { certificatesStage } from '../stages/20-merged/30-certificates/stage.ts';
import { salesStage } from '../stages/20-merged/40-sales/stage.ts';
import { flagsStage } from '../stages/20-merged/50-spatial-flags/stage.ts';
import { propertiesStage } from '../stages/20-merged/60-properties/stage.ts';
import { searchIndexStage } from '../stages/30-serving/10-search-index/stage.ts';
import { propertyRecordsStage } from '../stages/30-serving/20-property-records/stage.ts';
import { comparablesStage } from '../stages/30-serving/30-comparables/stage.ts';
import { valuationHomesStage } from '../stages/30-serving/40-valuation-homes/stage.ts';
import { designationsStage } from '../stages/30-serving/45-designations/stage.ts';
import { lookupTablesStage } from '../stages/30-serving/50-lookup-tables/stage.ts';
import { locationSetsStage } from '../stages/30-serving/70-location-sets/stage.ts';
import { priceIndexStage } from '../stages/40-marts/10-price-index/stage.ts';
import { pricePerSqftStage } from '../stages/40-marts/20-price-per-sqft/stage.ts';
import { ukhpiStage } from '../stages/40-marts/30-ukhpi/stage.ts';
import { postcodesStage } from '../stages/40-marts/40-postcodes/stage.ts';
import { rentsStage } from '../stages/40-marts/50-rents/stage.ts';
import { saleEvidenceStage } from '../stages/40-marts/52-sale-evidence/stage.ts';
import { postcodeLookupStage } from '../stages/40-marts/55-postcode-lookup/stage.ts';
import { valuationEvidenceStage } from '../stages/40-marts/60-valuation-evidence/stage.ts';
import { evidenceFilesStage } from '../stages/40-marts/65-evidence-files/stage.ts';
import { strMartsStage } from '../stages/40-marts/70-str/stage.ts';
import { areaLookupStage } from '../stages/40-marts/75-area-lookup/stage.ts';
import { strFilesStage } from '../stages/40-marts/77-str-files/stage.ts';
import { locationMartsStage } from '../stages/40-marts/80-location/stage.ts';
import { hmoLicencesStage } from '../stages/40-marts/90-hmo/stage.ts';
import { qualityStage } from '../stages/50-checks/10-quality/stage.ts';
import { indexCheckStage } from '../stages/50-checks/20-index-vs-ukhpi/stage.ts';

/** The price, postcode and rent marts in build order (after `properties`). */
export const MARKET_STAGES: readonly Stage[] = [priceIndexStage, pricePerSqftStage, ukhpiStage, postcodesStage, rentsStage];

/**
 * The build, in order: the folders under `etl/stages/` are numbered in this order (layer,
 * then stage within it). `npm run etl -- plan` prints this list.
 */
export const STAGES: readonly Stage[] = [
  stageSourcesStage,
  pricePaidCurrentStage,
  addressesStage,
  matchAddresses,
  certificatesStage,
  salesStage,
  flagsStage,
  propertiesStage,
  searchIndexStage,
  propertyRecordsStage,
  comparablesStage,
  valuationHomesStage,
  designationsStage,
  lookupTablesStage,
  ...MARKET_STAGES,
  saleEvidenceStage,
  postcodeLookupStage,
  valuationEvidenceStage,
  evidenceFilesStage,
  strMartsStage,
  areaLookupStage,
  strFilesStage,
  locationMartsStage,
  hmoLicencesStage,
  // A serving stage after the marts it writes out (crime, listings, HMO licences).
  locationSetsStage,
  qualityStage,
  indexCheckStage,
];
