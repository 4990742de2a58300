import { describe, expect, it } from 'vitest';
import type { BuildInfo } from '../../service/middleware/data.ts';
import { PerBuild } from '../../service/store/per-build.ts';

const build = (id: string): BuildInfo => ({ id, dir: `/data/builds/${id}`, manifest: {} });

/** An open function the test releases by hand, to look at the swap while it is pending. */
function gatedOpen() {
  const pending = new Map<string, { resolve: (v: string) => void; reject: (e: Error) => void }>();
  const open = (b: BuildInfo) => new Promise<string>((resolve, reject) => pending.set(b.id, { resolve, reject }));
  return { open, pending };
}

describe('PerBuild (the search index and store per build)', () => {
  it('the first request waits; a new build opens in the background while the previous one answers', async () => {
    const { open, pending } = gatedOpen();
    const closed: string[] = [];
    const pb = new PerBuild<string>(open, (v) => void closed.push(v));
    const first = pb.get(build('a'));
    pending.get('a')!.resolve('index-a');
    expect(await first).toBe('index-a');

    expect(await pb.get(build('b'))).toBe('index-a'); // b is opening: a answers
    expect(await pb.get(build('b'))).toBe('index-a');
    expect(pending.size).toBe(2); // one open of b, not one per request
    pending.get('b')!.resolve('index-b');
    await pb.prepare(build('b'));
    expect(await pb.get(build('b'))).toBe('index-b');
    expect(pb.servingDir).toBe('/data/builds/b');
    // The previous build's stays open for requests still on it, never reopened...
    expect(await pb.get(build('a'))).toBe('index-a');
    expect(pending.size).toBe(2);
    expect(closed).toEqual([]);
    // ...until retired once the service has switched (after a grace period).
    PerBuild.retireAll('/data/builds/b', 0);
    await new Promise((r) => setTimeout(r, 5));
    expect(closed).toEqual(['index-a']);
  });

  it('a third build evicts the oldest; a roll-back to the previous build swaps without reopening', async () => {
    const closed: string[] = [];
    let opens = 0;
    const pb = new PerBuild<string>(async (b) => `index-${b.id}-${++opens}`, (v) => void closed.push(v));
    await pb.prepare(build('a'));
    await pb.prepare(build('b'));
    expect(await pb.prepare(build('a'))).toBe('index-a-1'); // roll-back
    expect(pb.servingDir).toBe('/data/builds/a');
    expect(await pb.get(build('b'))).toBe('index-b-2');
    await pb.prepare(build('c'));
    expect(closed).toEqual(['index-b-2']);
    expect(opens).toBe(3);
  });

  it('a failed open keeps the previous build serving and is retried by a later request', async () => {
    let fail = true;
    const pb = new PerBuild<string>(async (b) => {
      if (b.id === 'b' && fail) throw new Error('no index file');
      return `index-${b.id}`;
    });
    expect(await pb.get(build('a'))).toBe('index-a');
    await expect(pb.prepare(build('b'))).rejects.toThrow('no index file');
    expect(await pb.get(build('b'))).toBe('index-a');
    fail = false;
    await pb.prepare(build('b'));
    expect(await pb.get(build('b'))).toBe('index-b');
  });

  it('with nothing open yet, a failed open fails the request', async () => {
    const pb = new PerBuild<string>(async () => {
      throw new Error('unreadable');
    });
    await expect(pb.get(build('a'))).rejects.toThrow('unreadable');
  });
});
