import { once } from 'node:events';
import net from 'node:net';

/** A loopback TCP proxy to a real server (PostgreSQL in the queue tests), which a test can cut and restore. */
export interface TcpProxy {
  readonly port: number;
  /** Breaks every open connection and refuses new ones (each is closed as it comes) until `restore`. */
  cut(): void;
  restore(): void;
  /** Connections accepted while up, over the proxy's life. */
  readonly accepted: number;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port forwarding to `target`: the fault a network or a restarting server makes, injected. */
export async function startTcpProxy(target: { readonly host: string; readonly port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let down = false;
  let accepted = 0;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    accepted++;
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => {
      down = true;
      for (const socket of open) socket.destroy();
    },
    restore: () => {
      down = false;
    },
    get accepted() {
      return accepted;
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
