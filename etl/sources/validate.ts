import type { z } from 'zod';
import type { RejectLog } from './rejects.ts';

/**
 * Validates one candidate row against its zod schema. On failure the row is counted
 * under `invalid:<field>` (the first failing field) so a manifest shows which column
 * is bad, and undefined is returned; the reader carries on.
 */
export function validateRow<S extends z.ZodType>(
  schema: S,
  candidate: unknown,
  rejects: RejectLog,
  line: number | undefined,
): z.infer<S> | undefined {
  const r = schema.safeParse(candidate);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : 'row';
  rejects.add(`invalid:${field}`, line, issue?.message ?? 'invalid row');
  return undefined;
}
