/**
 * Where an egress proxy listens, the listener it returns, and the one method a
 * sandbox needs from its way out.
 *
 * @module
 */

/** A TCP listener: where, and optionally whom it serves and what they may reach. */
export interface TcpListenTarget {
  /** The address to bind. @default "127.0.0.1" */
  host?: string;
  /** The port. @default 0 (an ephemeral port) */
  port?: number;
  /**
   * Only peers from these subnets (`172.18.0.0/16`, or one address) are
   * served; any other connection is closed before a byte is read.
   * @default undefined (every peer that can reach the address)
   */
  clients?: string | readonly string[];
  /**
   * Hosts this listener's clients reach without injection. When given (or
   * with `clients`), this listener's allowlist is the rules' hosts plus these,
   * instead of the proxy's own `allow`.
   * @default undefined (the proxy's allowlist)
   */
  allow?: readonly string[];
}

/** Where to listen: a Unix socket path, or a TCP port on a host. */
export type ListenTarget = string | TcpListenTarget;

/** One listening socket of a proxy. */
export interface ProxyListener {
  /** `http://127.0.0.1:<port>` for TCP; `undefined` for a Unix socket. */
  readonly url: string | undefined;
  /** The TCP port, or `undefined` for a Unix socket. */
  readonly port: number | undefined;
  /** Lets the process exit while this listener is open. */
  unref(): void;
  /** Stops listening and ends its connections. */
  close(): Promise<void>;
}

/** Anything the sandbox can use as its way out: it listens on a Unix socket bound into the sandbox. */
export interface EgressEndpoint {
  /** Starts listening at `target`. */
  listen(target: ListenTarget): Promise<ProxyListener>;
}
