/**
 * Why a Scottish home has no sale price, valuation from its sales, or sales history here:
 * the one open register of sale prices (HM Land Registry Price Paid) covers England and
 * Wales, and Scotland's (Registers of Scotland) is not open data. Endpoints that need sale
 * prices answer a Scottish home with a 404 giving this reason (docs/api.md, "Scotland: what its registers allow").
 */
export const SCOTTISH_SALES_NOT_OPEN =
  'Scottish sale prices are not open data (Registers of Scotland does not publish them under an open licence; HM Land Registry Price Paid covers England and Wales only)';

/** The country name the build's `properties.country` gives Scottish homes. */
export const SCOTLAND = 'Scotland';
