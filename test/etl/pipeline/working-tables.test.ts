import { describe, expect, it } from 'vitest';
import type { Stage } from '../../../etl/pipeline/context.ts';
import { STAGES } from '../../../etl/pipeline/stages.ts';
import { workingTablesDoneWith } from '../../../etl/pipeline/working-tables.ts';
import { PUBLISHED_TABLES } from '../../../schemas/tables/index.ts';

const stage = (name: string, reads: string[], writes: string[], more: Partial<Stage> = {}): Stage =>
  ({ name, description: '', reads, writes, run: async () => undefined, ...more });

describe('working tables a build is done with', () => {
  const a = stage('a', [], ['t1', 't2', 'index.bin']);
  const b = stage('b', ['t1'], ['t3']);
  const bg = stage('bg', ['t2'], ['x_out'], { beside: { after: 'a', tables: /^x_/ } });
  const c = stage('c', ['t3'], ['t4']);
  const plan = [a, b, c, bg];
  const published = new Set(['t4']);

  it('names a table once no later stage reads it, never a published table or a file', () => {
    expect(workingTablesDoneWith(plan, 0, published)).toEqual([]);
    expect(workingTablesDoneWith(plan, 1, published)).toEqual(['t1']);
    expect(workingTablesDoneWith(plan, 2, published)).toEqual(['t1', 't3']);
    // t2 waits for the stage beside the main line, at its own place; its own output is then done with too.
    expect(workingTablesDoneWith(plan, 3, published)).toEqual(['t1', 't2', 't3', 'x_out']);
  });

  it('in the build: the staged certificates go after the certificates stage, the postcode directory stays for the location marts', () => {
    const names = new Set(PUBLISHED_TABLES.map((t) => t.name));
    const at = (name: string) => STAGES.findIndex((s) => s.name === name);
    expect(workingTablesDoneWith(STAGES, at('match_addresses'), names)).not.toContain('stg_epc');
    expect(workingTablesDoneWith(STAGES, at('certificates'), names)).toContain('stg_epc');
    expect(workingTablesDoneWith(STAGES, at('postcodes'), names)).not.toContain('stg_onspd');
    expect(workingTablesDoneWith(STAGES, at('marts_str'), names)).not.toContain('stg_onspd');
    expect(workingTablesDoneWith(STAGES, at('marts_location'), names)).toContain('stg_onspd');
    // Nothing published is ever dropped, and by the end only what the build writes out is left.
    const last = workingTablesDoneWith(STAGES, STAGES.length - 1, names);
    expect(last.filter((t) => names.has(t))).toEqual([]);
    expect(last).toEqual(expect.arrayContaining(['stg_price_paid', 'ppd_current', 'sale_matches', 'epc_by_uprn']));
  });
});
