import { createServer } from 'node:net';

/** A TCP port on the loopback address that was free a moment ago. */
export const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
