import { CheckedConfigSchema, type Config } from '../schemas/config.ts';

/**
 * Parses the environment into the config, or throws one Error naming every bad
 * variable, so the process stops before it listens.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Blank variables count as unset, as a shell `FOO=` usually means "use the default".
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = CheckedConfigSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
