import { z } from 'zod';

/**
 * Field helpers for CSV rows. `z.coerce.number()` turns '' into 0, which silently
 * invents data; these treat an empty cell as missing instead.
 */
const emptyToUndef = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** A number that must be present. */
export const num = () => z.preprocess(emptyToUndef, z.coerce.number());
/** A number that may be blank (undefined when blank). */
export const optNum = () => z.preprocess(emptyToUndef, z.coerce.number().optional());
/** A non-empty trimmed string. */
export const str = () => z.string().trim().min(1);
/** A string that may be blank (undefined when blank). */
export const optStr = () => z.preprocess(emptyToUndef, z.string().trim().optional());
/** ISO calendar date `YYYY-MM-DD`. */
export const isoDate = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
