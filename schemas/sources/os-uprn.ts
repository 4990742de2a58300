import { z } from 'zod';
import { num } from './fields.ts';

/** OS Open UPRN CSV header, as published. */
export const OS_UPRN_HEADER = ['UPRN', 'X_COORDINATE', 'Y_COORDINATE', 'LATITUDE', 'LONGITUDE'] as const;

/** One row of OS Open UPRN: every UPRN in Great Britain with grid and WGS84 coordinates. */
export const OsUprnRow = z.object({
  uprn: num().pipe(z.number().int().positive().max(999_999_999_999)),
  x: num().pipe(z.number().min(0).max(700_000)),
  y: num().pipe(z.number().min(0).max(1_300_000)),
  lat: num().pipe(z.number().min(49).max(61)),
  lng: num().pipe(z.number().min(-9).max(2.5)),
});
export type OsUprnRow = z.infer<typeof OsUprnRow>;
