/**
 * Counts rows a reader refused, by reason, and keeps the first few examples so an
 * operator can see what was wrong without re-reading the file. A rejected row never
 * stops a read: readers call `add` and move on.
 */
export interface RejectSample {
  reason: string;
  line: number | undefined;
  detail: string;
}

export class RejectLog {
  readonly counts = new Map<string, number>();
  readonly samples: RejectSample[] = [];

  constructor(private readonly maxSamples = 20) {}

  add(reason: string, line?: number, detail = ''): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
    if (this.samples.length < this.maxSamples) {
      this.samples.push({ reason, line, detail: detail.slice(0, 300) });
    }
  }

  get total(): number {
    let n = 0;
    for (const c of this.counts.values()) n += c;
    return n;
  }

  count(reason: string): number {
    return this.counts.get(reason) ?? 0;
  }

  /** Plain object, reasons sorted, for manifests and test assertions. */
  toJSON(): { total: number; by_reason: Record<string, number>; samples: RejectSample[] } {
    const by_reason: Record<string, number> = {};
    for (const k of [...this.counts.keys()].sort()) by_reason[k] = this.counts.get(k)!;
    return { total: this.total, by_reason, samples: this.samples };
  }
}
