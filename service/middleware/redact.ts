/**
 * Anything that looks like an API key (`pi_live_…`, `pi_test_…`) in text the server echoes or
 * logs (a path, a parameter name or value) is replaced: a key pasted into a URL must not be
 * repeated in a 404 detail, a 400's `errors` or the access log.
 */
const KEY_LIKE = /pi_(live|test)_[A-Za-z0-9_\-.~+/=%]*/gi;

export const redactKeys = (text: string): string => text.replace(KEY_LIKE, (_m, kind: string) => `pi_${kind}_[redacted]`);
