import { z } from 'zod';
import { TIERS } from '../plans.ts';

/** True when YYYY-MM-DD names a real day (rejects 2026-02-31). */
function isCalendarDate(d: string): boolean {
  const t = Date.parse(`${d}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d;
}

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');

export const AccountResponseSchema = z
  .object({
    account_id: z.string(),
    name: z.string(),
    status: z.enum(['active', 'closed']),
    plan: z.object({ tier: z.enum(TIERS), name: z.string(), one_time_allowance: z.boolean() }),
    allowance: z.number().int().nullable().meta({ description: 'Credits for this cycle; null is unlimited (Enterprise).' }),
    remaining: z.number().int().nullable().meta({ description: 'Credits left this cycle; null is unlimited.' }),
    used_this_cycle: z.number().int(),
    cycle: z.object({
      start: z.iso.datetime(),
      end: z.iso.datetime().nullable().meta({ description: 'When the allowance renews; null for a one-time allowance (Free), which never renews.' }),
    }),
    rate_limit: z.object({ limit: z.number().int(), window_seconds: z.number() }),
    pending_downgrade: z
      .object({ tier: z.enum(TIERS), effective_at: z.iso.datetime() })
      .nullable()
      .meta({ description: 'A downgrade waiting for the next renewal, if any.' }),
  })
  .meta({ id: 'Account' });

export const UsageQuerySchema = z
  .strictObject({
    from: IsoDate.optional().meta({ description: 'First day, inclusive (default: cycle start).' }),
    to: IsoDate.optional().meta({ description: 'Last day, inclusive (default: today).' }),
  })
  .superRefine((v, ctx) => {
    for (const k of ['from', 'to'] as const) {
      const d = v[k];
      if (d !== undefined && !isCalendarDate(d)) ctx.addIssue({ code: 'custom', path: [k], message: 'not a calendar date' });
    }
    if (v.from !== undefined && v.to !== undefined && v.from > v.to) ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must not be after to' });
  });

const Tally = { calls: z.number().int(), credits: z.number().int() };
export const UsageResponseSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    total_calls: z.number().int(),
    total_credits: z.number().int(),
    by_endpoint: z.array(z.object({ endpoint: z.string(), ...Tally })),
    by_day: z.array(z.object({ date: z.string(), ...Tally })),
  })
  .meta({ id: 'Usage' });

export type AccountResponse = z.infer<typeof AccountResponseSchema>;
export type UsageResponse = z.infer<typeof UsageResponseSchema>;
