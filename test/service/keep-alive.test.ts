/**
 * Idle keep-alive connections (`KEEP_ALIVE_TIMEOUT_MS`): the server keeps one open for the
 * configured time, longer than clients' usual idle timeouts, so it is never the side that
 * closes a connection a client is just reusing (the client would see ECONNRESET). Node's own
 * default, 5 s, made a paced load generator's rarely used sockets fail that way.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../schemas/config.ts';
import { closeGracefully, createHttpServer, listen } from '../../service/server.ts';

const servers: ReturnType<typeof createHttpServer>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await closeGracefully(s, 100);
});

/** Sends one keep-alive request on a raw socket; resolves once the answer is in, with the socket still open. */
function oneRequest(port: number): Promise<Socket> {
  return new Promise((res, rej) => {
    const sock = connect(port, '127.0.0.1', () => sock.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n'));
    let got = '';
    sock.on('data', (d: Buffer) => {
      got += d.toString();
      if (got.includes('\r\n\r\nok')) res(sock);
    });
    sock.on('error', rej);
  });
}

/** Whether the server has closed the socket within `ms` (by the calendar: this is a timeout, not a speed). */
const closedWithin = (sock: Socket, ms: number) =>
  new Promise<boolean>((res) => {
    const t = setTimeout(() => res(false), ms);
    sock.once('end', () => (clearTimeout(t), res(true)));
  });

async function serve(env: Record<string, string>) {
  const config = ConfigSchema.parse(env);
  const server = createHttpServer((_req, res) => res.end('ok'), config);
  servers.push(server);
  return { port: await listen(server, 0, '127.0.0.1'), config };
}

describe('idle keep-alive connections', () => {
  it('are kept 65 s by default, past the 60 s idle timeout clients and load balancers commonly use', async () => {
    expect((await serve({})).config.KEEP_ALIVE_TIMEOUT_MS).toBe(65_000);
  });

  it('stay open while younger than the timeout, and are closed by the server after it', async () => {
    const { port } = await serve({ KEEP_ALIVE_TIMEOUT_MS: '1500' });
    const sock = await oneRequest(port);
    expect(await closedWithin(sock, 500)).toBe(false);
    expect(await closedWithin(sock, 10_000)).toBe(true);
    sock.destroy();
  });

  it('a bad value is refused with the variable named', () => {
    expect(() => ConfigSchema.parse({ KEEP_ALIVE_TIMEOUT_MS: '10' })).toThrow(/KEEP_ALIVE_TIMEOUT_MS/);
  });
});
