import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { countRoundTrips, servicePorts } from './round-trips.js';

async function listen(): Promise<{ server: net.Server; port: number }> {
  const server = net.createServer((socket) => socket.resume());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as net.AddressInfo).port };
}

test('round trips: the writes of one turn to one socket count once, per service by port; other sockets not at all', async () => {
  const pg = await listen();
  const redis = await listen();
  const other = await listen();
  const read = countRoundTrips({ postgres: pg.port, redis: redis.port });
  const connect = async (port: number): Promise<net.Socket> => {
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return socket;
  };
  const [a, b, c, d] = await Promise.all([connect(pg.port), connect(pg.port), connect(redis.port), connect(other.port)]);
  try {
    // A query's messages, written one by one in one turn: one request.
    a.write('parse');
    a.write('bind');
    a.write('sync');
    assert.deepEqual(read(), { postgres: 1, redis: 0, redisWrites: 0 });
    await nextTurn();
    a.write('next query');
    b.write('another connection');
    c.write('redis command');
    d.write('not a service');
    assert.deepEqual(read(), { postgres: 3, redis: 1, redisWrites: 1 });
    await nextTurn();
    c.write('a second command');
    c.write('a third, in the same turn');
    assert.deepEqual(read(), { postgres: 3, redis: 2, redisWrites: 3 });
  } finally {
    for (const s of [a, b, c, d]) s.destroy();
    for (const s of [pg, redis, other]) s.server.close();
  }
});

test('servicePorts: from the URLs, the defaults when they give none', () => {
  assert.deepEqual(servicePorts('postgres://127.0.0.1:5433/test?options=x', 'redis://host'), { postgres: 5433, redis: 6379 });
  assert.deepEqual(servicePorts('postgresql://u@db/x', 'redis://127.0.0.1:6380/0'), { postgres: 5432, redis: 6380 });
});
