import type { Stage } from './context.ts';
import { matchAddresses } from '../stages/match-addresses.ts';
import { addressesStage, certificatesStage, flagsStage, propertiesStage, salesStage } from '../stages/merge.ts';
import { MARKET_STAGES } from '../stages/marts-market.ts';
import { valuationEvidenceStage } from '../stages/marts-valuation.ts';
import { strMartsStage } from '../stages/marts-str.ts';
import { qualityStage } from '../stages/quality.ts';
import { searchIndexStage } from '../search/stage.ts';
import { propertyRecordsStage } from '../records/stage.ts';
import { stageSourcesStage } from '../stages/stage-sources-stage.ts';

/** The build, in order. `npm run etl -- plan` prints this list. */
export const STAGES: readonly Stage[] = [
  stageSourcesStage,
  addressesStage,
  matchAddresses,
  certificatesStage,
  salesStage,
  flagsStage,
  propertiesStage,
  searchIndexStage,
  propertyRecordsStage,
  ...MARKET_STAGES,
  valuationEvidenceStage,
  strMartsStage,
  qualityStage,
];
