import net from 'node:net';

/**
 * A TCP relay in front of a server that can go silent without closing anything, as a network partition or a cloud
 * failover leaves connections: `silence()` stops every byte both ways (new connections are accepted and hear nothing
 * either), `restore()` lets them flow again.
 */
export interface SilentRelay {
  port: number;
  silence(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startSilentRelay(target: { host: string; port: number }): Promise<SilentRelay> {
  let silent = false;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((incoming) => {
    const outgoing = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [incoming, outgoing];
    pairs.add(pair);
    incoming.pipe(outgoing);
    outgoing.pipe(incoming);
    if (silent) for (const socket of pair) socket.pause();
    const end = () => {
      pairs.delete(pair);
      incoming.destroy();
      outgoing.destroy();
    };
    incoming.on('error', end).on('close', end);
    outgoing.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const each = (action: (socket: net.Socket) => void) => {
    for (const pair of pairs) pair.forEach(action);
  };
  return {
    port: (server.address() as net.AddressInfo).port,
    silence() {
      silent = true;
      each((socket) => socket.pause());
    },
    restore() {
      silent = false;
      each((socket) => socket.resume());
    },
    close: () =>
      new Promise((resolve) => {
        each((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}
