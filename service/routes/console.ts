/**
 * The console (console/, docs/adr/0010-console.md): static files bundled at build time
 * (`make console`), served from this origin under a strict Content-Security-Policy: scripts,
 * styles, images and API calls from here only, nothing inline, no frames. Without a bundle the
 * page answers 503 saying how to build it, rather than a blank page.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ApiError } from '../middleware/errors.ts';
import type { Ctx, Router } from '../middleware/router.ts';

export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};
const IMAGE = /^images\/[a-z0-9-]+(?:-2x)?\.png$/;

export const DEFAULT_CONSOLE_DIR = resolve(import.meta.dirname, '../../console/dist');

export function addConsoleRoutes(router: Router, dir = DEFAULT_CONSOLE_DIR): void {
  const serve = async (ctx: Ctx, file: string, type: string) => {
    let body: Buffer;
    try {
      body = await readFile(join(dir, file));
    } catch {
      throw new ApiError('data_unavailable', 'The console is not built on this server: run `make console` (make demo and make test do).');
    }
    ctx.set('Content-Security-Policy', CONSOLE_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    // The page is small and changes with each deploy; revalidate rather than cache for long.
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = type;
    ctx.body = body;
  };
  router.add('GET', '/console', (ctx) => serve(ctx, 'index.html', TYPES['index.html']!));
  router.add('GET', '/console/', (ctx) => serve(ctx, 'index.html', TYPES['index.html']!));
  for (const [file, type] of Object.entries(TYPES)) router.add('GET', `/console/${file}`, (ctx) => serve(ctx, file, type));
  router.add('GET', '/console/images/{name}', (ctx) => {
    const name = `images/${ctx.params?.name ?? ''}`;
    if (!IMAGE.test(name)) throw new ApiError('not_found', 'No such console file.');
    return serve(ctx, name, 'image/png');
  });
}
