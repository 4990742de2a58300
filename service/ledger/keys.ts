/**
 * API keys: `pi_live_` + 32 random bytes (base64url). Only a SHA-256 hash is ever stored;
 * a plain hash is enough because the key carries 256 bits of entropy (nothing to guess,
 * so no slow KDF is needed) and it keeps lookups a single map probe.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'pi_live_';
/** Keys longer than this are refused before hashing (a real key is 51 characters). */
export const MAX_KEY_LENGTH = 128;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Hex SHA-256 of the key. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex hashes of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function newId(prefix: string): string {
  return prefix + randomBytes(9).toString('base64url');
}
