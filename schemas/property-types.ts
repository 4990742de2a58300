/**
 * The words for a home's type that the API answers with (record, sales, comparables, trends,
 * sale valuation), and Price Paid's one-letter codes for them: defined once here, imported by
 * the request and response schemas, the ETL and the service. The STR endpoints keep the spec's
 * `house|apartment`, the listing feeds their own words (schemas/sources); docs/api.md maps them.
 */

/** A dwelling's type, as Price Paid records it (D, S, T, F). */
export const HOME_TYPES = ['Detached', 'Semi-Detached', 'Terraced', 'Flat'] as const;
export type HomeType = (typeof HOME_TYPES)[number];

/** Price Paid's property type codes; O (other: not a dwelling) only on a sale, never a home. */
export const PPD_TYPE_NAMES = { D: 'Detached', S: 'Semi-Detached', T: 'Terraced', F: 'Flat', O: 'Other' } as const;

/** Price Paid's code of each home type. */
export const PPD_CODE_OF: Record<HomeType, 'D' | 'S' | 'T' | 'F'> = { Detached: 'D', 'Semi-Detached': 'S', Terraced: 'T', Flat: 'F' };

/** Price Paid's duration (tenure) codes. */
export const PPD_TENURE_NAMES = { F: 'Freehold', L: 'Leasehold', U: 'Unknown' } as const;
