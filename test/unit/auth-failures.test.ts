import { describe, expect, it } from 'vitest';
import { addressKey, AuthFailureTable } from '../../service/domain/auth-failures.ts';

describe('AuthFailureTable', () => {
  it('refuses an address after `limit` failures in the window, until the oldest leaves it', () => {
    const t = new AuthFailureTable({ limit: 3, windowMs: 10_000, capacity: 100 });
    t.fail('a', 1_000);
    t.fail('a', 2_000);
    expect(t.retryAfterMs('a', 2_000)).toBe(0);
    t.fail('a', 5_000);
    // The oldest (1,000) leaves at 11,000.
    expect(t.retryAfterMs('a', 5_000)).toBe(6_000);
    expect(t.retryAfterMs('a', 10_999)).toBe(1);
    expect(t.retryAfterMs('a', 11_000)).toBe(0);
    expect(t.retryAfterMs('b', 5_000)).toBe(0);
    // One more failure then: 2,000, 5,000 and 11,500 are in the window, so refused until 12,000.
    t.fail('a', 11_500);
    expect(t.retryAfterMs('a', 11_500)).toBe(500);
  });

  it('failures spread wider than the window never refuse', () => {
    const t = new AuthFailureTable({ limit: 2, windowMs: 1_000, capacity: 10 });
    for (let i = 0; i < 50; i++) {
      t.fail('a', i * 1_000);
      expect(t.retryAfterMs('a', i * 1_000)).toBe(0);
    }
  });

  it('limit 0: never refuses, keeps nothing', () => {
    const t = new AuthFailureTable({ limit: 0, windowMs: 1_000, capacity: 10 });
    for (let i = 0; i < 100; i++) t.fail('a', 0);
    expect(t.retryAfterMs('a', 0)).toBe(0);
    expect(t.size).toBe(0);
  });

  it('keeps at most `capacity` addresses, evicting the least recently failed', () => {
    const t = new AuthFailureTable({ limit: 1, windowMs: 60_000, capacity: 3 });
    for (const a of ['a', 'b', 'c']) t.fail(a, 0);
    t.fail('a', 1); // a is now the most recent
    t.fail('d', 2); // evicts b
    expect(t.size).toBe(3);
    expect(t.retryAfterMs('b', 3)).toBe(0);
    for (const a of ['a', 'c', 'd']) expect(t.retryAfterMs(a, 3)).toBeGreaterThan(0);
    for (let i = 0; i < 10_000; i++) t.fail(`x${i}`, 10);
    expect(t.size).toBe(3);
  });
});

describe('addressKey', () => {
  it('IPv4 as is, IPv4-mapped as IPv4, IPv6 by its /64 however it is written', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
