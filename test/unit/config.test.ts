import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../service/config.ts';

describe('loadConfig', () => {
  it('applies the defaults', () => {
    expect(loadConfig({})).toMatchObject({ PORT: 8080, DATA_DIR: './data', LOG_LEVEL: 'info', BODY_LIMIT_BYTES: 65_536, QUERY_LIMIT_BYTES: 4_096, HEADER_LIMIT_BYTES: 16_384, NODE_ENV: 'production' });
  });
  it('reads and coerces the environment; blank means default', () => {
    expect(loadConfig({ PORT: '9000', DATA_DIR: '/srv/data', LOG_LEVEL: 'debug', BODY_LIMIT_BYTES: '' })).toMatchObject({ PORT: 9000, DATA_DIR: '/srv/data', LOG_LEVEL: 'debug', BODY_LIMIT_BYTES: 65_536 });
  });
  it('fails with every bad variable named', () => {
    expect(() => loadConfig({ PORT: '70000', LOG_LEVEL: 'verbose', QUERY_LIMIT_BYTES: 'lots' })).toThrow(/invalid configuration:\n {2}PORT: .*\n {2}LOG_LEVEL: .*\n {2}QUERY_LIMIT_BYTES: /);
    expect(() => loadConfig({ PORT: '80.5' })).toThrow(/PORT/);
  });
});
