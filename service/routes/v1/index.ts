/**
 * The 28 endpoints of DESIGN.md §6, in its order: one module per endpoint, each declaring
 * its schemas, its credit cost and its handler. The app, the OpenAPI document and the
 * cost-table test all read this list.
 */
import addressesSearch from './addresses-search.ts';
import property from './property.ts';
import propertySales from './property-sales.ts';
import propertyEpc from './property-epc.ts';
import postcode from './postcode.ts';
import valuationSale from './valuation-sale.ts';
import valuationRental from './valuation-rental.ts';
import valuationHmo from './valuation-hmo.ts';
import valuationDevelopmentGdv from './valuation-development-gdv.ts';
import pricesComparables from './prices-comparables.ts';
import pricesTrends from './prices-trends.ts';
import rentsLongTerm from './rents-long-term.ts';
import rentsHmo from './rents-hmo.ts';
import yields from './yields.ts';
import valuationStrEstimate from './valuation-str-estimate.ts';
import strMarket from './str-market.ts';
import strListings from './str-listings.ts';
import listings from './listings.ts';
import sourcingDeals from './sourcing-deals.ts';
import area from './area.ts';
import crime from './crime.ts';
import schools from './schools.ts';
import risks from './risks.ts';
import floodRisk from './flood-risk.ts';
import planningConstraints from './planning-constraints.ts';
import hmoLicences from './hmo-licences.ts';
import account from './account.ts';
import accountUsage from './account-usage.ts';
import type { RouteDef } from '../types.ts';

export const V1_ROUTES: readonly RouteDef[] = [
  addressesSearch,
  property,
  propertySales,
  propertyEpc,
  postcode,
  valuationSale,
  valuationRental,
  valuationHmo,
  valuationDevelopmentGdv,
  pricesComparables,
  pricesTrends,
  rentsLongTerm,
  rentsHmo,
  yields,
  valuationStrEstimate,
  strMarket,
  strListings,
  listings,
  sourcingDeals,
  area,
  crime,
  schools,
  risks,
  floodRisk,
  planningConstraints,
  hmoLicences,
  account,
  accountUsage,
];

export const V1_PREFIX = '/v1';
