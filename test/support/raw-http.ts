/**
 * HTTP/1.1 by hand on a raw TCP socket, for tests where the socket itself matters: a
 * complete request closed at once, a body cut short, a client that leaves at a chosen moment.
 */
import { connect, type Socket } from 'node:net';

export interface RawExchange {
  socket: Socket;
  /** Resolves when the socket is closed, with every byte received. */
  closed: Promise<Buffer>;
}

/** Connects, writes `bytes` once connected, and collects what comes back. */
export function rawSend(port: number, bytes: string | Buffer): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    const closed = new Promise<Buffer>((r) => socket.on('close', () => r(Buffer.concat(chunks))));
    socket.once('error', () => {}); // a reset is an outcome here, read through `closed`
    socket.once('connect', () => {
      socket.write(bytes);
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

/** A GET request's bytes. */
export const rawGet = (path: string, key: string, headers: Record<string, string> = {}): string =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}Connection: close\r\n\r\n`;

/** A complete HTTP response in `bytes` (status line, headers, and Content-Length bytes of body), or undefined. */
export function parseResponse(bytes: Buffer): { status: number; headers: Record<string, string>; body: string } | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(lines[0]!.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
  }
  const body = bytes.subarray(end + 4);
  const length = Number(headers['content-length']);
  if (!Number.isFinite(length) || body.length < length) return undefined;
  return { status, headers, body: body.subarray(0, length).toString('utf8') };
}

/** Waits (by polling, never asserting on time) until `cond` holds. */
export async function until(cond: () => boolean | Promise<boolean>, what: string, limitMs = 60_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
