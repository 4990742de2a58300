import { SECTION_TYPES, type SectionArray } from './sections-file.ts';
import type { SpilledSection } from './section-spill.ts';

/** Reads a section's values back one at a time, in order, through a buffer of its own (to read two sections in step). */
export class SpillReader {
  private readonly piece: SectionArray;
  private at = 0;
  private end = 0;
  private index = 0;

  constructor(private readonly section: SpilledSection, bufferBytes: number) {
    const C = SECTION_TYPES[section.type];
    this.piece = new C(Math.max(1, Math.floor(bufferBytes / C.BYTES_PER_ELEMENT)));
  }

  next(): number {
    if (this.at === this.end) {
      this.end = this.section.read(this.index, this.piece);
      if (this.end === 0) throw new Error(`read past the end of a spilled section (${this.index} values)`);
      this.index += this.end;
      this.at = 0;
    }
    return this.piece[this.at++]!;
  }
}
