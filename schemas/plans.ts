/**
 * The plan table, exactly as the spec's "Plans" table: pure data shared by the API schemas
 * (schemas/api/account.ts), the ledger and the rate limiter. Enterprise has no allowance
 * (unlimited) and a per-account rate
 * limit set when the account is created.
 */
export const TIERS = ['free', 'starter', 'growth', 'pro', 'business', 'scale', 'premium', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export interface RateLimit {
  /** Requests allowed in any window of `windowMs`. */
  limit: number;
  windowMs: number;
}

export interface Plan {
  tier: Tier;
  /** Display name as in the spec. */
  name: string;
  /** Credits per cycle; null is unlimited (Enterprise). */
  allowance: number | null;
  /** Free tier: the allowance is granted once, never renewed. */
  oneTime: boolean;
  /** Null for Enterprise: set per account. */
  rateLimit: RateLimit | null;
  /** GBP per month; null where the spec says none/custom. */
  priceGbpMonthly: number | null;
  pricePerCreditGbp: number | null;
  /** Order for upgrade/downgrade comparisons. */
  rank: number;
}

const TEN_S = 10_000;

export const PLANS: Readonly<Record<Tier, Plan>> = {
  free: { tier: 'free', name: 'Free', allowance: 100, oneTime: true, rateLimit: { limit: 2, windowMs: 1_000 }, priceGbpMonthly: 0, pricePerCreditGbp: null, rank: 0 },
  starter: { tier: 'starter', name: 'Starter', allowance: 2_000, oneTime: false, rateLimit: { limit: 4, windowMs: TEN_S }, priceGbpMonthly: 28, pricePerCreditGbp: 0.014, rank: 1 },
  growth: { tier: 'growth', name: 'Growth', allowance: 5_000, oneTime: false, rateLimit: { limit: 4, windowMs: TEN_S }, priceGbpMonthly: 48, pricePerCreditGbp: 0.0096, rank: 2 },
  pro: { tier: 'pro', name: 'Pro', allowance: 15_000, oneTime: false, rateLimit: { limit: 6, windowMs: TEN_S }, priceGbpMonthly: 96, pricePerCreditGbp: 0.0064, rank: 3 },
  business: { tier: 'business', name: 'Business', allowance: 50_000, oneTime: false, rateLimit: { limit: 8, windowMs: TEN_S }, priceGbpMonthly: 192, pricePerCreditGbp: 0.0038, rank: 4 },
  scale: { tier: 'scale', name: 'Scale', allowance: 100_000, oneTime: false, rateLimit: { limit: 12, windowMs: TEN_S }, priceGbpMonthly: 288, pricePerCreditGbp: 0.0029, rank: 5 },
  premium: { tier: 'premium', name: 'Premium', allowance: 150_000, oneTime: false, rateLimit: { limit: 16, windowMs: TEN_S }, priceGbpMonthly: 384, pricePerCreditGbp: 0.0026, rank: 6 },
  enterprise: { tier: 'enterprise', name: 'Enterprise', allowance: null, oneTime: false, rateLimit: null, priceGbpMonthly: null, pricePerCreditGbp: null, rank: 7 },
};

/** Enterprise default when an account is created without its own setting. */
export const ENTERPRISE_DEFAULT_RATE_LIMIT: RateLimit = { limit: 50, windowMs: TEN_S };
