import { describe, expect, it } from 'vitest';
import { hasShared, inCi, SHARED_DIR } from '../support/raw.ts';

/** The one rule for tests that read ../shared: skip saying so, except a contract pin in CI. */
describe('hasShared', () => {
  const absent = 'spec/no-such-document.txt';

  it('an absent file skips, outside CI, pin or not', () => {
    expect(hasShared(absent, { env: {} })).toBe(false);
    expect(hasShared(absent, { pin: true, env: {} })).toBe(false);
    expect(hasShared(absent, { pin: true, env: { CI: 'false' } })).toBe(false);
  });

  it('an absent contract pin in CI fails, naming the missing file', () => {
    expect(() => hasShared(absent, { pin: true, env: { CI: 'true' } })).toThrow(`${SHARED_DIR}/${absent} is missing`);
    expect(() => hasShared(absent, { pin: true, env: { CI: '1' } })).toThrow(/may not skip in CI/);
    // A real sample is not a pin: CI without the samples skips them.
    expect(hasShared(absent, { env: { CI: 'true' } })).toBe(false);
  });

  it('CI is any CI value but empty, 0 or false', () => {
    expect([{}, { CI: '' }, { CI: '0' }, { CI: 'FALSE' }].map((env) => inCi(env))).toEqual([false, false, false, false]);
    expect([{ CI: 'true' }, { CI: '1' }, { CI: 'yes' }].map((env) => inCi(env))).toEqual([true, true, true]);
  });
});
