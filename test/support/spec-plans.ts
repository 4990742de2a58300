/**
 * The specification's "Plans" table (shared/spec, Limits > Plans), written out by hand for
 * the tests: the expected credits, rate limits and prices per tier, independent of
 * service/domain/plans.ts. test/contract/plans.test.ts pins these rows to the spec's text.
 */
export interface SpecPlan {
  /** The row exactly as the spec prints it. */
  row: string;
  name: string;
  /** Credits per cycle; null is "unlimited". */
  credits: number | null;
  oneTime: boolean;
  /** null is "custom" (set per account). */
  rate: { limit: number; windowMs: number } | null;
  /** GBP; null is "none" / "by volume". */
  pricePerCredit: number | null;
  /** GBP per month; 0 is "free", null is "custom". */
  priceMonthly: number | null;
}

export const SPEC_PLANS = {
  free: { row: '| Free | 100, one-time | 2 per second | none | free |', name: 'Free', credits: 100, oneTime: true, rate: { limit: 2, windowMs: 1_000 }, pricePerCredit: null, priceMonthly: 0 },
  starter: { row: '| Starter | 2,000 per month | 4 per 10 seconds | 0.0140 | 28 per month |', name: 'Starter', credits: 2_000, oneTime: false, rate: { limit: 4, windowMs: 10_000 }, pricePerCredit: 0.014, priceMonthly: 28 },
  growth: { row: '| Growth | 5,000 per month | 4 per 10 seconds | 0.0096 | 48 per month |', name: 'Growth', credits: 5_000, oneTime: false, rate: { limit: 4, windowMs: 10_000 }, pricePerCredit: 0.0096, priceMonthly: 48 },
  pro: { row: '| Pro | 15,000 per month | 6 per 10 seconds | 0.0064 | 96 per month |', name: 'Pro', credits: 15_000, oneTime: false, rate: { limit: 6, windowMs: 10_000 }, pricePerCredit: 0.0064, priceMonthly: 96 },
  business: { row: '| Business | 50,000 per month | 8 per 10 seconds | 0.0038 | 192 per month |', name: 'Business', credits: 50_000, oneTime: false, rate: { limit: 8, windowMs: 10_000 }, pricePerCredit: 0.0038, priceMonthly: 192 },
  scale: { row: '| Scale | 100,000 per month | 12 per 10 seconds | 0.0029 | 288 per month |', name: 'Scale', credits: 100_000, oneTime: false, rate: { limit: 12, windowMs: 10_000 }, pricePerCredit: 0.0029, priceMonthly: 288 },
  premium: { row: '| Premium | 150,000 per month | 16 per 10 seconds | 0.0026 | 384 per month |', name: 'Premium', credits: 150_000, oneTime: false, rate: { limit: 16, windowMs: 10_000 }, pricePerCredit: 0.0026, priceMonthly: 384 },
  enterprise: { row: '| Enterprise | unlimited | custom | by volume | custom |', name: 'Enterprise', credits: null, oneTime: false, rate: null, pricePerCredit: null, priceMonthly: null },
} as const satisfies Record<string, SpecPlan>;

export type SpecTier = keyof typeof SPEC_PLANS;
export const SPEC_TIERS = Object.keys(SPEC_PLANS) as SpecTier[];
