import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Stage } from '../../../etl/pipeline/context.ts';
import { sourceKindsOf } from '../../../etl/pipeline/stage-output-cache.ts';
import { STAGES } from '../../../etl/pipeline/stages.ts';
import { SOURCES } from '../../../etl/sources/index.ts';

const STAGES_DIR = resolve(import.meta.dirname, '..', '..', '..', 'etl', 'stages');
const all = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f));

/** Code without comments (a comment may name a table the code does not read). */
const code = (file: string) => readFileSync(file, 'utf8')
  .replace(/\/\*[\s\S]*?\*\//g, '').replace(file.endsWith('.sql') ? /--.*$/gm : /(^|[^:'"`])\/\/.*$/gm, '$1');

/** Each stage's folder, found by the module that exports it. */
async function folders(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of all(STAGES_DIR).filter((x) => x.endsWith('stage.ts'))) {
    for (const v of Object.values(await import(f) as Record<string, unknown>)) {
      if (v && typeof v === 'object' && 'run' in v && 'reads' in v) out.set((v as Stage).name, dirname(f));
    }
  }
  return out;
}

/**
 * Every file a stage's code can run: its folder, the stage modules it imports (transitively),
 * and every SQL file those name (statements are called by name, from the calling module's folder).
 */
function stageText(folder: string): string {
  const files = new Set<string>();
  const queue = all(folder).filter((f) => f.endsWith('.ts') || f.endsWith('.sql'));
  while (queue.length > 0) {
    const f = queue.pop()!;
    if (files.has(f)) continue;
    files.add(f);
    if (!f.endsWith('.ts')) continue;
    // Value imports of other stage modules (a type import runs nothing; pipeline code reads no stage's tables).
    for (const m of code(f).matchAll(/^import\s+(?!type\b)[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      const to = resolve(dirname(f), m[1]!);
      // The staging specs imported for a constant name every staging table and read none.
      if (to.startsWith(STAGES_DIR) && !to.startsWith(join(STAGES_DIR, '10-staging'))) queue.push(to);
    }
  }
  for (const f of [...files]) {
    if (!f.endsWith('.ts')) continue;
    const text = code(f);
    // Statement names: in a sql.run or sql.text call, or in a list of names the code runs in turn.
    const named = [...text.matchAll(/(?:\.run\([^,()]+,|\.text\()\s*'([a-z0-9_]+)'/g)].map((m) => m[1]!);
    for (const list of text.matchAll(/(?<!(?:reads|writes):\s*|derives:\s*\{[^}]*)\[((?:\s*'[a-z0-9_]+'\s*,?)+)\]/g)) named.push(...[...list[1]!.matchAll(/'([a-z0-9_]+)'/g)].map((m) => m[1]!));
    // A module's statements sit in its own folder (sqlFolder(import.meta.dirname)).
    for (const n of named) {
      const sql = join(dirname(f), `${n}.sql`);
      if (existsSync(sql)) files.add(sql);
    }
  }
  // `beside: { after: 'name' }` names a stage, not a table.
  return [...files].map((f) => code(f).replace(/\bbeside:\s*\{[^}]*\}/g, '')).join('\n');
}

/** The tables a stage's own files drop (DROP TABLE): its scratch tables, which no later stage can read. */
function dropped(folder: string): Set<string> {
  const out = new Set<string>();
  for (const f of all(folder)) {
    if (!f.endsWith('.sql') && !f.endsWith('.ts')) continue;
    for (const m of code(f).matchAll(/DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/gi)) out.add(m[1]!);
  }
  return out;
}

/** The tables a stage's code creates: CREATE TABLE in its SQL, createTable and loadRows in its TS, its `writes`. */
function created(folder: string, stage: Stage): Set<string> {
  const out = new Set(stage.writes);
  for (const f of all(folder)) {
    if (!f.endsWith('.sql') && !f.endsWith('.ts')) continue;
    const text = code(f);
    for (const m of text.matchAll(/CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP\w*\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/gi)) out.add(m[1]!);
    for (const m of text.matchAll(/(?:createTable|loadRows)\(\s*[\w.]+,\s*'([a-z_][a-z0-9_]*)'/g)) out.add(m[1]!);
  }
  return out;
}

describe('stage reads', () => {
  it('name every table a reused stage (or one upstream of it) reads that staging or an earlier stage makes', async () => {
    const where = await folders();
    const makers = new Map<string, number>();
    for (const s of SOURCES) makers.set(s.table, 0);
    // The reused stages and every stage whose tables reach them: their reads are their cache keys.
    const checked = new Set<number>();
    const reach = (i: number) => {
      if (checked.has(i)) return;
      checked.add(i);
      for (const t of STAGES[i]!.reads) {
        const w = STAGES.slice(0, i).findLastIndex((s) => s.writes.includes(t));
        if (w > 0) reach(w);
      }
    };
    STAGES.forEach((s, i) => s.reuse && reach(i));
    expect(checked.size).toBeGreaterThan(STAGES.filter((s) => s.reuse).length - 1);
    const missing: string[] = [];
    for (const [i, stage] of STAGES.entries()) {
      const folder = where.get(stage.name);
      expect(folder, stage.name).toBeDefined();
      const own = created(folder!, stage);
      const text = stageText(folder!);
      for (const [table, at] of makers) {
        if (!checked.has(i)) break;
        if (at >= i || own.has(table) || stage.reads.includes(table)) continue;
        if (new RegExp(`\\b${table}\\b`).test(text)) missing.push(`${stage.name} reads ${table} (made by ${STAGES[at]!.name})`);
      }
      // A reused stage gives back the tables it made, so it may not replace one an earlier stage made.
      if (stage.reuse) for (const t of own) if (makers.has(t)) missing.push(`${stage.name} replaces ${t} (made by ${STAGES[makers.get(t)!]!.name})`);
      // A table the stage drops again (the matcher's work tables) is not one it leaves a later stage.
      const drops = dropped(folder!);
      for (const t of own) if (!makers.has(t) && !drops.has(t)) makers.set(t, i);
    }
    expect(missing).toEqual([]);
  });

  it('are checked on the files that hold the SQL (the scan finds what a stage reads)', async () => {
    const where = await folders();
    const text = stageText(where.get('search-index')!);
    expect(text).toMatch(/\bFROM addresses\b/);
    expect(relative(STAGES_DIR, where.get('marts_str')!)).toBe(join('40-marts', '70-str'));
  });

  it('give each reused stage the source kinds that feed it, through the tables it reads', () => {
    const at = (name: string) => STAGES.findIndex((s) => s.name === name);
    const kinds = (name: string) => [...(sourceKindsOf(STAGES, at(name)) ?? ['not reusable'])].sort();
    // Without an AddressBase file the addresses come from the certificates (docs/open-data.md).
    const addressBase = ['addressbase', 'epc', 'epc_scotland', 'onspd', 'os_uprn'];
    expect(kinds('addresses')).toEqual(addressBase);
    expect(kinds('search-index')).toEqual(addressBase);
    // The certificate matches are derived from the address base and the certificates alone: not Price Paid.
    expect(kinds('certificates')).toEqual(addressBase);
    expect(kinds('spatial_flags')).toEqual([...addressBase, 'planning'].sort());
    expect(kinds('marts_str')).toEqual([...addressBase, 'airbnb_calendar', 'airbnb_listings', 'airbnb_reviews', 'codepoint'].sort());
    // Through postcode_places, the postcode directory without its sales, and the street keys.
    expect(kinds('marts_location')).toEqual([...addressBase, 'codepoint', 'gias_schools', 'listings', 'police_crime'].sort());
    // Through sale_matches and sales: Price Paid feeds the property records.
    expect(kinds('property-records')).toContain('price_paid');
    // A stage reading the sources folder itself is never reusable.
    expect(kinds('quality')).toEqual(['not reusable']);
    for (const s of STAGES.filter((x) => x.reuse)) expect(kinds(s.name), s.name).not.toContain('price_paid');
  });

  it('derive a table only from the stage\'s own reads, and only a table it writes', () => {
    for (const s of STAGES) {
      for (const [table, from] of Object.entries(s.derives ?? {})) {
        expect(s.writes, `${s.name} derives ${table}`).toContain(table);
        for (const t of from) expect(s.reads, `${s.name} derives ${table} from ${t}`).toContain(t);
      }
    }
  });

  it('mark `today` on every reused stage whose code reads the build date', async () => {
    const where = await folders();
    for (const s of STAGES.filter((x) => x.reuse)) {
      const reads = /\bctx\.(today|now)\b|\bcurrent_(date|timestamp)\b|(?<!\.)\bnow\(\)|\bnew Date\(|\$today\b/i.test(stageText(where.get(s.name)!));
      if (reads) expect(s.reuse!.today, s.name).toBe(true);
    }
  });
});
