/**
 * The plan table against the specification: the hand-written rows of test/support/
 * spec-plans.ts are the spec's own text (read from ../shared/spec when present), their
 * values are what that text says (parsed here, separately), and service/domain/plans.ts
 * holds exactly those values. The service tests (credits, rate limits) take their expected
 * numbers from SPEC_PLANS, never from the code's PLANS.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLANS, TIERS } from '../../schemas/plans.ts';
import { hasShared, SHARED_DIR } from '../support/raw.ts';
import { SPEC_PLANS, SPEC_TIERS, type SpecPlan } from '../support/spec-plans.ts';

// Skipped, saying so, without ../shared/spec; in CI (CI=true) its absence fails this file.
const SPEC_DIR = join(SHARED_DIR, 'spec');
const specText = hasShared('spec', { pin: true })
  ? readdirSync(SPEC_DIR).filter((f) => f.endsWith('.txt')).map((f) => readFileSync(join(SPEC_DIR, f), 'utf8')).join('\n')
  : undefined;

/** What a spec row says, read from its words (independent of the values written beside it). */
function parseRow(row: string): Omit<SpecPlan, 'row'> {
  const [name, credits, rate, perCredit, price] = row.split('|').slice(1, -1).map((c) => c.trim()) as [string, string, string, string, string];
  const num = (s: string) => Number(s.replace(/,/g, ''));
  const rateM = /^(\d+) per (second|(\d+) seconds)$/.exec(rate);
  return {
    name,
    credits: credits === 'unlimited' ? null : num(credits.split(/[ ,]+(?:one-time|per month)/)[0]!),
    oneTime: credits.endsWith('one-time'),
    rate: rateM ? { limit: Number(rateM[1]), windowMs: (rateM[3] ? Number(rateM[3]) : 1) * 1000 } : null,
    pricePerCredit: /^\d/.test(perCredit) ? Number(perCredit) : null,
    priceMonthly: price === 'free' ? 0 : /^\d/.test(price) ? num(price.split(' ')[0]!) : null,
  };
}

describe('the plan table (spec "Plans")', () => {
  it.runIf(specText)('the hand-written rows are the specification\'s, in its order, and nothing else', () => {
    const lines = specText!.slice(specText!.indexOf('### Plans')).split('\n');
    const start = lines.findIndex((l) => l.startsWith('|'));
    const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
    const rows = lines.slice(start + 2, end); // past the header and its |---| line
    expect(rows).toEqual(SPEC_TIERS.map((t) => SPEC_PLANS[t].row));
  });

  it.each(SPEC_TIERS)('%s: the written values are what its row says', (tier) => {
    const { row, ...values } = SPEC_PLANS[tier];
    expect(parseRow(row)).toEqual(values);
  });

  it('the code has exactly the spec tiers, in the spec order', () => {
    expect([...TIERS]).toEqual(SPEC_TIERS);
  });

  it.each(SPEC_TIERS)('%s: service/domain/plans.ts matches the spec', (tier) => {
    const spec = SPEC_PLANS[tier];
    const plan = PLANS[tier];
    expect({
      name: plan.name,
      credits: plan.allowance,
      oneTime: plan.oneTime,
      rate: plan.rateLimit,
      pricePerCredit: plan.pricePerCreditGbp,
      priceMonthly: plan.priceGbpMonthly,
    }).toEqual({ name: spec.name, credits: spec.credits, oneTime: spec.oneTime, rate: spec.rate, pricePerCredit: spec.pricePerCredit, priceMonthly: spec.priceMonthly });
  });
});
