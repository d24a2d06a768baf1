/**
 * Raw HTTP over a socket, for what fetch would normalize or refuse to send: dot segments as
 * written, bodies that never end, many sockets from one client address (any of 127/8 on Linux).
 */
import { connect, type Socket } from 'node:net';

/** A socket to the server, from `localAddress`, once connected. */
export function open(port: number, localAddress = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends on `socket` until it closes (a reset ends it too). */
export function untilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
  });
}

/** One raw request (its request line as written, e.g. `GET /v2/../metrics HTTP/1.1`), answered then closed. */
export async function raw(port: number, requestLine: string, localAddress?: string): Promise<{ status: number; text: string }> {
  const socket = await open(port, localAddress);
  const answer = untilClosed(socket);
  socket.write(`${requestLine}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  const text = await answer;
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text };
}
