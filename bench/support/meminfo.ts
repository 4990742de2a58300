/**
 * The machine's memory in use and a process's share of it, from Linux's /proc: what the
 * national bench (bench/national.ts) reads to say how much memory serving needs.
 *
 * "In use" is MemTotal − MemAvailable (/proc/meminfo): the kernel's own estimate of what could
 * not be handed to a new program without swapping, so the page cache a server's files sit in
 * counts only as far as it cannot be dropped. A process's Pss (/proc/PID/smaps_rollup) divides
 * each shared page among the processes that map it: the sum over a server's processes counts a
 * file mapped by two workers once, where the sum of their RSS counts it twice.
 */
import { readFileSync } from 'node:fs';

const MB = 1024 * 1024;

/** `Key:   123 kB` lines (the format of /proc/meminfo, /proc/PID/status and smaps_rollup) → bytes by key. */
export function parseKbFields(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z_()0-9]+):\s+(\d+) kB\s*$/.exec(line);
    if (m) out[m[1]!] = Number(m[2]) * 1024;
  }
  return out;
}

/** MemTotal − MemAvailable of a /proc/meminfo text, in bytes; throws when either is missing. */
export function memInUse(meminfoText: string): { total: number; available: number; in_use: number } {
  const f = parseKbFields(meminfoText);
  const total = f.MemTotal;
  const available = f.MemAvailable;
  if (total === undefined || available === undefined) throw new Error('/proc/meminfo has no MemTotal or MemAvailable (a kernel before 3.14?)');
  return { total, available, in_use: total - available };
}

/** The machine's memory in use now (MemTotal − MemAvailable), in MB. */
export const machineInUseMb = (): number => Math.round(memInUse(readFileSync('/proc/meminfo', 'utf8')).in_use / MB);

/** What smaps_rollup says of one process, in MB (absent fields read as 0). */
export interface ProcessShare {
  rss_mb: number;
  pss_mb: number;
  pss_anon_mb: number;
  pss_file_mb: number;
  shared_mb: number;
  private_mb: number;
}

/** A process's share of memory from its smaps_rollup text. */
export function parseSmapsRollup(text: string): ProcessShare {
  const f = parseKbFields(text);
  const mb = (...keys: string[]) => Math.round(keys.reduce((a, k) => a + (f[k] ?? 0), 0) / MB);
  if (f.Rss === undefined || f.Pss === undefined) throw new Error('smaps_rollup has no Rss or Pss line');
  return {
    rss_mb: mb('Rss'),
    pss_mb: mb('Pss'),
    pss_anon_mb: mb('Pss_Anon'),
    pss_file_mb: mb('Pss_File'),
    shared_mb: mb('Shared_Clean', 'Shared_Dirty'),
    private_mb: mb('Private_Clean', 'Private_Dirty'),
  };
}

/** A live process's share (undefined when it has gone or its smaps_rollup cannot be read). */
export function processShare(pid: number): ProcessShare | undefined {
  try {
    return parseSmapsRollup(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** VmRSS of a live process in MB (undefined when it has gone). */
export function rssMb(pid: number): number | undefined {
  try {
    const rss = parseKbFields(readFileSync(`/proc/${pid}/status`, 'utf8')).VmRSS;
    return rss === undefined ? undefined : Math.round(rss / MB);
  } catch {
    return undefined;
  }
}

/**
 * Whether memory came back to its level: `after` is within `toleranceMb` of `before`, or
 * below it. Both are medians of samples taken under the same load, so the tolerance only has to
 * cover the noise of a machine others share.
 */
export function backToLevel(beforeMb: number, afterMb: number, toleranceMb: number): boolean {
  if (![beforeMb, afterMb, toleranceMb].every(Number.isFinite)) return false;
  return afterMb - beforeMb <= toleranceMb;
}
