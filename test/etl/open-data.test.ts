/**
 * A build without AddressBase (issue 47, docs/open-data.md) beside the AddressBase build of
 * the same synthetic region, through the real ETL (bench/open-data.ts at a small scale): the
 * manifest says which address source was used; the fallback invents no home; its sale matches
 * hold the precision target against the truth; every sale is still in the area statistics;
 * and search finds a home as Price Paid and as its certificate write it.
 */
import { describe, expect, it } from 'vitest';
import { openDataComparison, type OpenDataResult } from '../../bench/open-data.ts';

describe('open-data build against the AddressBase build of one region', () => {
  let r: OpenDataResult;

  it('builds both, each saying its address source', async () => {
    r = await openDataComparison({ addresses: 3000, seed: 5, targets: 200 });
    expect(r.addressbase.address_source).toMatchObject({ kind: 'addressbase' });
    expect(r.open_data.address_source).toMatchObject({ kind: 'open_data' });
  }, 300_000);

  it('the fallback gives addresses only to true homes, at their true postcode, and covers what certificates cover', () => {
    const t = r.open_data.open_data_truth as { true_homes: number; homes_with_address: number; addresses_not_true_homes: number; postcode_agrees: number };
    expect(t.addresses_not_true_homes).toBe(0);
    expect(t.true_homes).toBe(r.addressbase.true_homes);
    expect(t.homes_with_address).toBe(r.open_data.uprns_with_address);
    // Certificates carry a UPRN for roughly half to two thirds of homes; AddressBase for all.
    expect(t.homes_with_address / t.true_homes).toBeGreaterThan(0.45);
    expect(t.homes_with_address).toBeLessThan(r.addressbase.uprns_with_address);
    expect(t.postcode_agrees / t.homes_with_address).toBeGreaterThan(0.99);
  });

  it('matches fewer sales but as precisely: at least 99.5% right against the truth', () => {
    expect(r.open_data.sale_match_precision).toBeGreaterThanOrEqual(0.995);
    expect(r.addressbase.sale_match_precision).toBeGreaterThanOrEqual(0.995);
    expect(r.open_data.sales_matched).toBeLessThan(r.addressbase.sales_matched);
    expect(r.open_data.sales).toBe(r.addressbase.sales);
  });

  it('a sale without a UPRN still counts in its area: the index volumes hold (nearly) every sale either way', () => {
    const ab = r.addressbase.sales_in_area_statistics;
    const od = r.open_data.sales_in_area_statistics;
    expect(od).toBeGreaterThan(r.open_data.sales_matched);
    expect(Math.abs(od - ab) / ab).toBeLessThan(0.01);
  });

  it('search finds a home typed as Price Paid and as its certificate write it', () => {
    for (const b of [r.addressbase, r.open_data]) {
      expect(b.typed_as_price_paid.completed_top5).toBeGreaterThan(0.95);
      expect(b.typed_as_certificate.completed_top5).toBeGreaterThan(0.95);
    }
    // On the fallback only homes with a certificate are searchable at all.
    expect(r.open_data.typed_as_price_paid.in_index).toBeLessThan(r.open_data.typed_as_price_paid.targets);
    expect(r.open_data.typed_as_certificate.in_index).toBe(r.open_data.typed_as_certificate.targets);
  });
});
