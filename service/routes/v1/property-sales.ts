import { z } from 'zod';
import { Uprn } from '../../../schemas/api/common.ts';
import { PropertySalesSchema } from '../../../schemas/api/property-history.ts';
import { priceToday } from '../../domain/lookups.ts';
import { PPD_TENURE_NAMES, PPD_TYPE_NAMES } from '../../../schemas/property-types.ts';
import { monthText } from '../../../schemas/months.ts';
import { sourceAsOfEntry } from '../../lookups/tables.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';
import { requireCovered } from '../coverage.ts';

export default defineRoute({
  method: 'GET',
  path: '/properties/{uprn}/sales',
  operationId: 'getPropertySales',
  summary: 'Price-paid history of a property',
  description:
    'Every recorded sale of the property matched from HM Land Registry Price Paid, newest first: deleted records absent, changed ' +
    'records in their latest form; each price brought to today by the local repeat-sales index (the most local of sector, ' +
    'outcode, district and country with enough sales; docs/marts.md). A known property with no recorded sale is a 200 with count 0; ' +
    'a Scottish home is a 404 saying why (Scottish sale prices are not open data).',
  tag: 'Identity',
  cost: 1,
  params: z.strictObject({ uprn: Uprn }),
  response: PropertySalesSchema,
  needsBuild: true,
  mayNotFind: true,
  mayNotCover: true,
  handler: async ({ params, data, build }) => {
    const tables = await data.lookups.get().catch(notServedYet('GET /properties/{uprn}/sales'));
    if (!tables.has.has('sales')) notServedYet('GET /properties/{uprn}/sales')();
    const uprn = Number(params.uprn);
    const record = (await data.records.get()).get(uprn);
    if (!record) throw new ApiError('not_found', `No property with UPRN ${params.uprn}.`);
    await requireCovered('price_paid', { kind: 'uprn', label: `UPRN ${uprn}`, uprn, la_code: null, lat: null, lng: null }, data);
    const rows = tables.sales!.get(uprn);
    const valuer = await data.saleValuer.get();
    const lookup = valuer.lookup;
    const sales = rows.map((r) => {
      const path = { sector: r.sector, outcode: r.outcode, district: r.la_code, country: r.country };
      return {
        transaction_id: r.transaction_id,
        date: r.date,
        price: r.price,
        price_today: priceToday(r.price, lookup.logGrowth(path, r.month_no)),
        property_type: PPD_TYPE_NAMES[r.property_type as keyof typeof PPD_TYPE_NAMES] ?? 'Other',
        new_build: r.new_build === true,
        tenure: PPD_TENURE_NAMES[r.tenure as keyof typeof PPD_TENURE_NAMES] ?? 'Unknown',
        category: (r.category === 'B' ? 'B' : 'A') as 'A' | 'B',
      };
    });
    const hasIndex = sales.some((s) => s.price_today !== null);
    return {
      uprn,
      address: record.address ?? 'null', // the untyped read's text for a NULL, kept (as GET /properties/{uprn})
      postcode: record.postcode,
      count: sales.length,
      sales,
      price_today_month: hasIndex ? monthText(valuer.asOfMonth) : null,
      price_today_method: 'price × the local repeat-sales index at price_today_month ÷ its level in the month of the sale (most local of sector, outcode, district, country with enough sales)',
      source: sourceAsOfEntry(build, 'price_paid'),
    };
  },
});
