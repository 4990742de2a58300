/**
 * Bundles the console (console/src) into console/dist with esbuild: one script, one
 * stylesheet (Leaflet's, uPlot's and ours), the page and Leaflet's control images. Nothing is
 * fetched at run time from anywhere but the service's own origin (docs/adr/0010-console.md).
 * `make console` runs it; the console test runs it too, so a lone vitest run is complete.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const HERE = import.meta.dirname;
export const CONSOLE_DIST = resolve(HERE, 'dist');

export interface BundleSizes { [file: string]: { bytes: number; gzip_bytes: number } }

export async function buildConsole(out = CONSOLE_DIST): Promise<BundleSizes> {
  const req = createRequire(import.meta.url);
  const leafletDir = dirname(req.resolve('leaflet/package.json'));
  const uplotDir = dirname(req.resolve('uplot/package.json'));
  // Built beside the old folder and swapped in whole, so a server never serves half a build.
  const tmp = `${out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(join(tmp, 'images'), { recursive: true });
  await build({
    entryPoints: [join(HERE, 'src/main.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    outfile: join(tmp, 'app.js'),
    logLevel: 'error',
  });
  const css = [join(leafletDir, 'dist/leaflet.css'), join(uplotDir, 'dist/uPlot.min.css'), join(HERE, 'src/console.css')]
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  writeFileSync(join(tmp, 'app.css'), css);
  copyFileSync(join(HERE, 'src/index.html'), join(tmp, 'index.html'));
  for (const img of readdirSync(join(leafletDir, 'dist/images'))) copyFileSync(join(leafletDir, 'dist/images', img), join(tmp, 'images', img));
  const sizes: BundleSizes = {};
  for (const f of ['app.js', 'app.css', 'index.html']) {
    const body = readFileSync(join(tmp, f));
    sizes[f] = { bytes: statSync(join(tmp, f)).size, gzip_bytes: gzipSync(body).length };
  }
  writeFileSync(join(tmp, 'sizes.json'), JSON.stringify(sizes, null, 2) + '\n');
  rmSync(out, { recursive: true, force: true });
  renameSync(tmp, out);
  return sizes;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(HERE, 'build.ts')) {
  const sizes = await buildConsole();
  for (const [f, s] of Object.entries(sizes)) process.stdout.write(`console/dist/${f}: ${s.bytes} B (${s.gzip_bytes} B gzipped)\n`);
}
