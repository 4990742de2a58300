import type { TableContract } from './contract.ts';
import { MARKET_TABLES } from './market.ts';
import { PROPERTY_TABLES } from './property.ts';
import { STR_TABLES } from './str.ts';
import { VALUATION_TABLES } from './valuation.ts';
import { LOCATION_TABLES } from './location.ts';
import { HMO_TABLES } from './hmo.ts';

/** Every table a build publishes, in the order the build writes and documents them. */
export const PUBLISHED_TABLES: readonly TableContract[] = [...PROPERTY_TABLES, ...MARKET_TABLES, ...VALUATION_TABLES, ...STR_TABLES, ...LOCATION_TABLES, ...HMO_TABLES];
