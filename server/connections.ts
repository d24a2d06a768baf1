/**
 * The per-address connection limit of `abkit serve`: one client address may hold only part of
 * the server's connections, so that one client (a flood of slow bodies from one address) cannot
 * fill the global cap and lock everyone else out, `/health/live` included.
 *
 * @module
 */
import type { Server } from 'node:http';
import { isIPv6, type Socket } from 'node:net';

/** What {@link limitConnectionsPerAddress} reports. */
export interface ConnectionLimit {
  /** Connections open now from the address of `address` (its key). */
  openFrom(address: string): number;
}

/**
 * The key an address is counted under: an IPv4 address as it is (also when IPv4-mapped), an
 * IPv6 address by its /64 prefix, which is what one host or one customer network gets, so that
 * one client cannot multiply its share by switching addresses within its prefix.
 *
 * @example
 * ```ts
 * addressKey('::ffff:203.0.113.9'); // '203.0.113.9'
 * addressKey('2001:db8:1:2:aaaa::1'); // '2001:db8:1:2::/64'
 * ```
 */
export function addressKey(address: string): string {
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address)
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The eight groups of an IPv6 address (a zone id dropped, `::` expanded). */
function expandIPv6(address: string): string[] {
  const [head, tail] = address.split('%')[0]!.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  if (tail === undefined) return left;
  const right = tail === '' ? [] : tail.split(':');
  return [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
}

const REFUSED_BODY = (limit: number) =>
  JSON.stringify({ message: `too many connections from this address: at most ${limit} at once (ABKIT_MAX_CONNECTIONS_PER_IP)` });

/**
 * Holds every address of `server` to `limit` open connections. A connection past it gets a
 * `429` naming the limit and is closed at once, so that refused connections never hold slots of
 * the global cap either; connections of other addresses are served as before. Must be called
 * before the server accepts its first connection.
 *
 * @example
 * ```ts
 * const server = createServer(listener);
 * limitConnectionsPerAddress(server, 256, () => metrics.connectionsRefused.inc());
 * ```
 */
export function limitConnectionsPerAddress(server: Server, limit: number, onRefused: () => void = () => undefined): ConnectionLimit {
  // node:http serves a connection from its own 'connection' listener: it runs only for the
  // connections this one lets through, so a refused one never gets a parser or a request.
  const serveConnection = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const open = new Map<string, number>();
  const response = (() => {
    const body = REFUSED_BODY(limit);
    return `HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nretry-after: 1\r\nconnection: close\r\n\r\n${body}`;
  })();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) {
      // Already closed by the client.
      socket.destroy();
      return;
    }
    const key = addressKey(address);
    const count = open.get(key) ?? 0;
    if (count >= limit) {
      onRefused();
      socket.on('error', () => undefined);
      // Written at once (a new socket's send buffer is empty), then closed: a client that has
      // not sent its request yet reads the 429, one that has may see a reset.
      socket.end(response);
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = open.get(key)! - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
    for (const listener of serveConnection) listener.call(server, socket);
  });
  return { openFrom: (address) => open.get(addressKey(address)) ?? 0 };
}
