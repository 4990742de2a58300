/**
 * Compile-time contract: reads fields of several responses with their documented types.
 * When a route's response schema changes type, the regenerated schema.d.ts no longer
 * matches this file and `npm run check` (tsc) fails. Never run, only compiled.
 */
import { createPropertyIntelligenceClient } from './index.ts';

export async function contract(base: string, key: string): Promise<void> {
  const api = createPropertyIntelligenceClient(base, key);
  const account = await api.GET('/account');
  if (account.data) {
    const remaining: number | null = account.data.remaining;
    const end: string | null = account.data.cycle.end;
    const tier: 'free' | 'starter' | 'growth' | 'pro' | 'business' | 'scale' | 'premium' | 'enterprise' = account.data.plan.tier;
    void [remaining, end, tier];
  }
  const search = await api.GET('/addresses/search', { params: { query: { q: 'high street', limit: 5 } } });
  if (search.data) {
    const uprn: number = search.data.results[0]!.uprn;
    // A UPRN from any answer (a number here, a string in the sale valuation's echo) goes into
    // any operation as it is: path, query and body UPRNs accept both forms.
    const record = await api.GET('/properties/{uprn}', { params: { path: { uprn } } });
    const sale = await api.GET('/valuations/{uprn}/sale', { params: { path: { uprn } } });
    if (record.data && sale.data) {
      const echoed: string = sale.data.uprn;
      await api.GET('/risks/{uprn}', { params: { path: { uprn: echoed } } });
      await api.GET('/prices/comparables', { params: { query: { uprn: record.data.uprn, property_type: 'apartment' } } });
    }
    // A UPRN from a search result goes into the STR estimate as it is (a number).
    const str = await api.POST('/valuations/str-estimate', { body: { uprn, bedrooms: 2 } });
    if (str.data) {
      const revenue: number = str.data.projected_annual.revenue;
      const confidence: 'High' | 'Medium' | 'Low' = str.data.confidence;
      void [revenue, confidence];
    }
  }
  if (account.error) {
    const status: number = account.error.status;
    void status;
  }
}
