import type { OutFile } from './out.ts';

/**
 * Deliberately malformed rows, one kind per reason the readers report. Every planted row
 * is counted here by file and reason and written to truth/expected-rejects.json, so the
 * round-trip test can demand exactly these rejects and nothing else.
 */
export class Planter {
  readonly expected: Record<string, Record<string, number>> = {};

  plant(file: OutFile, reason: string, text: string): void {
    file.row(text);
    const byReason = (this.expected[file.rel] ??= {});
    byReason[reason] = (byReason[reason] ?? 0) + 1;
  }

  /** Sorted by file then reason, so the JSON is byte-stable. */
  toJSON(): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const f of Object.keys(this.expected).sort()) {
      const r = this.expected[f]!;
      out[f] = Object.fromEntries(Object.keys(r).sort().map((k) => [k, r[k]!]));
    }
    return out;
  }
}
