/**
 * The real server of the single-endpoint benches, in the bench's own process: a file ledger in
 * `dataDir` with one enterprise key whose rate limit no load reaches, the app over a fixed
 * build's resources, and each response's server-side time (request to finish) handed to
 * `onFinish`, which the bench files by phase or endpoint as it needs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildApp } from '../../service/app.ts';
import type { BuildResources } from '../../service/build/resources.ts';
import { fixedBuild } from '../../service/build/warmer.ts';
import { loadConfig } from '../../service/config.ts';
import { ledgerDir, openFileLedger } from '../../service/ledger/index.ts';
import { createLogger } from '../../service/log.ts';
import { closeGracefully, createHttpServer, listen } from '../../service/server.ts';

export interface TimedServer {
  url: string;
  /** The bench key's authorization header. */
  headers: { authorization: string };
  close(): Promise<void>;
}

export async function startTimedServer(dataDir: string, resources: BuildResources, onFinish: (req: IncomingMessage, ms: number, status: number) => void): Promise<TimedServer> {
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  const ledger = await openFileLedger({ dir: ledgerDir(dataDir) });
  const { api_key } = await ledger.createAccount({ tier: 'enterprise', name: 'bench', rateLimit: { limit: 1_000_000_000, windowMs: 10_000 } }, new Date());
  const { koa } = buildApp({ config, ledger, clock: () => new Date(), builds: fixedBuild(resources), logger: createLogger('silent') });
  const cb = koa.callback();
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const t0 = process.hrtime.bigint();
    res.on('finish', () => onFinish(req, Number(process.hrtime.bigint() - t0) / 1e6, res.statusCode));
    void cb(req, res);
  }, config);
  const port = await listen(server, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    headers: { authorization: `Bearer ${api_key}` },
    close: async () => {
      await closeGracefully(server, 1_000);
      await ledger.close();
    },
  };
}
