/**
 * A client that goes away (issue 45 parts 1 and 2), on raw sockets against a real server:
 * a complete request whose socket is closed before the charge commits is not charged, and
 * bodies cut short or abandoned are the client's doing: logged as client-closed at info
 * level without a stack, counted as 499, never as a 500 or an "unhandled error".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import type { RouteDef } from '../../service/routes/types.ts';
import { deferred } from '../support/deferred.ts';
import { rawGet, rawSend, until } from '../support/raw-http.ts';
import { routesAnswering200 } from './requests.ts';
import { startTestServer, type TestServer } from './support.ts';

let gate = deferred();
let entered = deferred();
const routes: RouteDef[] = routesAnswering200(V1_ROUTES).map((r) =>
  r.operationId === 'getRisks'
    ? {
        ...r,
        handler: async () => {
          entered.resolve();
          await gate.promise;
          return { held: true };
        },
      }
    : r,
);

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ routes });
  s.clock.tickMs = 3_000; // every request in a fresh rate window
  s.server.on('request', (req: { headers: Record<string, unknown> }) => parsed.add(String(req.headers['x-request-id'])));
});
/** Request ids whose headers the server has parsed (so it is reading the body, if any). */
const parsed = new Set<string>();
afterAll(() => s.stop());

const open = () => new Promise<number>((r, j) => s.server.getConnections((e, n) => (e ? j(e) : r(n))));
const logLines = () => s.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
const count499 = async (route: string) => {
  const m = new RegExp(`http_requests_total\\{method="[A-Z]+",route="${route.replace(/[{}/]/g, (c) => `\\${c}`)}",status="499"\\} (\\d+)`).exec(await s.metricsText());
  return m ? Number(m[1]) : 0;
};

describe('a client that has gone', () => {
  it('a complete GET /v1/risks/{uprn} closed at once is not charged: released, logged and counted as 499', async () => {
    const acc = await s.account('premium');
    const before = s.ledger.account(acc.id, new Date(s.clock.ms))!.remaining;
    const runs = 20;
    for (let i = 0; i < runs; i++) {
      gate = deferred();
      entered = deferred();
      const ex = await rawSend(s.port, rawGet('/v1/risks/100023336956', acc.key, { 'X-Request-Id': `gone-at-once-${i}` }));
      ex.socket.end(); // the whole request, then the client closes at once
      await entered.promise;
      await ex.closed;
      await until(async () => (await open()) === 0, 'the server to see the close');
      gate.resolve();
      await until(() => logLines().some((l) => l.client_request_id === `gone-at-once-${i}` && l.msg === 'request'), 'the access log line');
    }
    expect(s.ledger.account(acc.id, new Date(s.clock.ms))!.remaining).toBe(before);
    expect(s.ledger.usage({ account_id: acc.id }, new Date(s.clock.ms)).total_calls).toBe(0);
    const lines = logLines().filter((l) => String(l.client_request_id).startsWith('gone-at-once-'));
    expect(lines.filter((l) => l.msg === 'request').map((l) => l.status)).toEqual(Array(runs).fill(499));
    expect(lines.filter((l) => l.msg === 'client closed the connection')).toHaveLength(runs);
    expect(lines.every((l) => (l.level as number) < 50 && l.err === undefined)).toBe(true);
    expect(await count499('GET /v1/risks/{uprn}')).toBe(runs);
  });

  it('a body cut short (Content-Length: 100, 8 bytes sent, closed) is a 499 at info level, no stack, never a 500', async () => {
    const acc = await s.account('premium');
    const before = await count499('POST /v1/valuations/str-estimate');
    const ex = await rawSend(
      s.port,
      `POST /v1/valuations/str-estimate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${acc.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nX-Request-Id: cut-short-body-1\r\n\r\n{"postco`,
    );
    await until(() => parsed.has('cut-short-body-1'), 'the server to parse the headers');
    ex.socket.end();
    // Node's parser also reports the early end to server.ts's clientError, which answers the
    // half-closed socket 400 "Malformed HTTP request"; never a 500.
    expect((await ex.closed).toString('latin1')).not.toMatch(/^HTTP\/1\.1 5/);
    await until(() => logLines().some((l) => l.client_request_id === 'cut-short-body-1' && l.msg === 'request'), 'the access log line');
    const lines = logLines().filter((l) => l.client_request_id === 'cut-short-body-1');
    expect(lines.find((l) => l.msg === 'request')).toMatchObject({ status: 499 });
    expect(lines.find((l) => l.msg === 'client closed the connection')).toMatchObject({ level: 30 }); // pino's info;
    expect(lines.some((l) => l.msg === 'unhandled error' || l.err !== undefined || (l.level as number) >= 50)).toBe(false);
    expect(await count499('POST /v1/valuations/str-estimate')).toBe(before + 1);
    expect(await s.metricsText()).not.toMatch(/status="500"/);
  });

  it('slow-body clients that leave (FIN or reset) are 499s, not 500s', async () => {
    const acc = await s.account('premium');
    const before = await count499('POST /v1/valuations/str-estimate');
    const n = 20;
    for (let i = 0; i < n; i++) {
      const ex = await rawSend(
        s.port,
        `POST /v1/valuations/str-estimate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${acc.key}\r\nContent-Type: application/json\r\nContent-Length: 50\r\nX-Request-Id: slow-body-${i}\r\n\r\n{`,
      );
      // Leaves once the server is reading its body.
      ex.socket.write('"post');
      await until(() => parsed.has(`slow-body-${i}`), 'the server to parse the headers');
      if (i % 2 === 0) ex.socket.resetAndDestroy();
      else ex.socket.end();
      await ex.closed;
      await until(() => logLines().some((l) => l.client_request_id === `slow-body-${i}` && l.msg === 'request'), 'the access log line');
    }
    const lines = logLines().filter((l) => String(l.client_request_id).startsWith('slow-body-'));
    expect(lines.filter((l) => l.msg === 'request').map((l) => l.status)).toEqual(Array(n).fill(499));
    expect(lines.some((l) => (l.level as number) >= 50 || l.err !== undefined)).toBe(false);
    expect(await count499('POST /v1/valuations/str-estimate')).toBe(before + n);
    expect(await s.metricsText()).not.toMatch(/status="500"/);
  });

  it('a client still there is answered and charged as before', async () => {
    const acc = await s.account('premium');
    gate = deferred();
    entered = deferred();
    const ex = await rawSend(s.port, rawGet('/v1/risks/100023336956', acc.key));
    await entered.promise;
    gate.resolve();
    const got = (await ex.closed).toString('latin1');
    expect(got).toMatch(/^HTTP\/1\.1 200 /);
    expect(s.ledger.usage({ account_id: acc.id }, new Date(s.clock.ms)).total_calls).toBe(1);
  });
});
