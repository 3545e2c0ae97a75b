import type { Socket } from "node:net";

/** What is known of one connection. */
interface Slot {
  /** Requests on it not yet answered (an SSE stream counts until it closes). */
  open: number;
  /** A request on it passed the token check. */
  proven: boolean;
  /** When it last went without an open request (`performance.now()`). */
  idleSince: number;
}

/**
 * The server's connections, at most `max` at once, kept so that clients
 * without the token cannot lock out those with it. When one more connects
 * with every slot taken, a connection with no request open is closed to make
 * room: first the oldest that never carried a request past the token check
 * (an idle or slowloris socket of anyone), then the one idle the longest; a
 * connection carrying an open request (a running call, an SSE stream) is
 * never closed for another, and with all of them busy the newcomer is the one
 * closed. Node's own `maxConnections` instead refuses newcomers, so 512 idle
 * sockets kept everyone out until the headers timeout cut them.
 *
 * On a runtime whose `node:http` emits no `connection` event (Bun), a
 * connection is first seen with its first request: idle sockets are then
 * bounded by the runtime's own idle timeout, not by this count.
 *
 * @example
 * ```ts
 * import * as http from "node:http";
 * const slots = new ConnectionSlots(512);
 * const server = http.createServer((request, response) => {
 *   slots.opened(request.socket);
 *   response.once("close", () => slots.closed(request.socket));
 *   response.end("ok");
 * });
 * server.on("connection", (socket) => slots.admit(socket));
 * ```
 */
export class ConnectionSlots {
  readonly #max: number;
  readonly #slots = new Map<Socket, Slot>();
  #evicted = 0;

  /** @param max Connections at once. */
  constructor(max: number) {
    this.#max = max;
  }

  /** Connections held now. */
  get size(): number {
    return this.#slots.size;
  }

  /** Connections closed so far to make room for another. */
  get evicted(): number {
    return this.#evicted;
  }

  /**
   * Takes a new connection: room is made if every slot is taken (see the
   * class), or the newcomer is closed when all carry open requests.
   *
   * @param socket The connection.
   */
  admit(socket: Socket): void {
    if (this.#slots.size >= this.#max) {
      const victim = this.#victim();
      if (victim === undefined) {
        socket.destroy();
        return;
      }
      this.#slots.delete(victim);
      this.#evicted++;
      victim.destroy();
    }
    this.#track(socket);
  }

  /**
   * A request began on `socket` (on Bun, the first sign of the connection).
   *
   * @param socket The request's connection.
   */
  opened(socket: Socket): void {
    const slot = this.#slots.get(socket) ?? this.#track(socket);
    slot.open++;
  }

  /**
   * A request on `socket` was answered (its response closed).
   *
   * @param socket The request's connection.
   */
  closed(socket: Socket): void {
    const slot = this.#slots.get(socket);
    if (slot === undefined) return;
    slot.open = Math.max(0, slot.open - 1);
    if (slot.open === 0) slot.idleSince = performance.now();
  }

  /**
   * A request on `socket` passed the token check: the connection is no longer
   * the first to be closed for a newcomer.
   *
   * @param socket The request's connection.
   */
  prove(socket: Socket): void {
    const slot = this.#slots.get(socket);
    if (slot !== undefined) slot.proven = true;
  }

  #track(socket: Socket): Slot {
    const slot: Slot = { open: 0, proven: false, idleSince: performance.now() };
    this.#slots.set(socket, slot);
    socket.once("close", () => {
      if (this.#slots.get(socket) === slot) this.#slots.delete(socket);
    });
    return slot;
  }

  // The oldest unproven connection with no open request; else the proven one idle the longest.
  #victim(): Socket | undefined {
    let idlest: Socket | undefined;
    let idleSince = Infinity;
    for (const [socket, slot] of this.#slots) {
      if (slot.open > 0) continue;
      if (!slot.proven) return socket;
      if (slot.idleSince < idleSince) {
        idlest = socket;
        idleSince = slot.idleSince;
      }
    }
    return idlest;
  }
}
