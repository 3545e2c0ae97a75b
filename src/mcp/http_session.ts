import { randomUUID } from "node:crypto";
import * as fs from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import * as path from "node:path";
// The SDK's "./*" export maps types to "*.d.ts" (here "streamableHttp.js.d.ts", which does not exist):
// Deno's type check is pointed at the name without ".js"; tsc and every runtime read the import itself.
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { openWorkspace } from "../core/fs/open_workspace.ts";
import { MCP_HTTP_SSE_RETRY_MS } from "../core/limits.ts";
import type { Workspace } from "../core/fs/workspace.ts";
import type { Host } from "../host.ts";
import { ReplayEventStore } from "./replay_event_store.ts";
import { createPaddockMcpServer } from "./server.ts";
import type { McpServerConnection, PaddockMcpServerOptions } from "./server_types.ts";

/** What every session of one HTTP server is made from. */
export interface HttpSessionPlan {
  /** What each session's server offers (its roots are the session's own). */
  server: Omit<PaddockMcpServerOptions, "root" | "roots">;
  /** The folders served (canonical), the default first; each session opens its own workspace over each. */
  roots: readonly string[];
  /** Give each session a fresh folder under `dir` as its only root (in place of `roots`). @default undefined */
  perSession?: { dir: string; keep: boolean };
  /** The host the sessions' workspaces use. */
  host: Host;
  /** What no tool reads, lists or changes in any of a session's roots (`WorkspaceOptions.privatePaths`). @default [] */
  privatePaths?: readonly string[];
}

/**
 * One MCP session over Streamable HTTP: its own workspaces (so its own read
 * stamps, undo groups, background processes and client roots), its own
 * server and the SDK's transport. {@link HttpSession.end} ends it: the
 * transport closes, every background process of the session is killed, and
 * a per-session folder is removed (unless kept).
 */
export class HttpSession {
  /** The session's id (`Mcp-Session-Id`). */
  readonly id: string;
  /** Who opened it (the token's principal): only they may use it. */
  readonly principal: string;
  /** The session's own folder, with per-session roots. */
  readonly folder: string | undefined;
  /** Requests of this session open now. */
  open = 0;
  /** Resolves once the session has ended and its resources are gone. */
  readonly ended: Promise<void>;
  readonly #transport: StreamableHTTPServerTransport;
  readonly #server: McpServerConnection;
  readonly #workspaces: readonly Workspace[];
  readonly #keep: boolean;
  readonly #warmUp: AbortController;
  #ending: (() => void) | undefined;
  #endStarted = false;

  private constructor(
    id: string,
    principal: string,
    folder: string | undefined,
    keep: boolean,
    parts: { transport: StreamableHTTPServerTransport; server: McpServerConnection; workspaces: Workspace[] },
    warmUp: AbortController,
  ) {
    this.id = id;
    this.principal = principal;
    this.folder = folder;
    this.#keep = keep;
    this.#transport = parts.transport;
    this.#server = parts.server;
    this.#workspaces = parts.workspaces;
    this.#warmUp = warmUp;
    this.ended = new Promise((resolve) => (this.#ending = resolve));
  }

  /**
   * Opens a session: 1. its id; 2. its folder, with per-session roots
   * (created exclusive, mode 0700); 3. its own workspace over each root;
   * 4. its server over them; 5. the SDK's transport, whose `DELETE` (or
   * close) ends the session.
   *
   * @param plan What sessions are made from.
   * @param principal Who opens it.
   * @param onEnd Called once the session has ended.
   * @returns The session, connected; its first request (`initialize`) is still to be handled.
   */
  static async open(
    plan: HttpSessionPlan,
    principal: string,
    onEnd: (session: HttpSession) => void,
  ): Promise<HttpSession> {
    const id = randomUUID();
    let folder: string | undefined;
    if (plan.perSession !== undefined) {
      folder = path.join(plan.perSession.dir, id);
      await fs.mkdir(folder, { mode: 0o700 });
    }
    const workspaces: Workspace[] = [];
    const warmUp = new AbortController();
    try {
      for (const root of folder === undefined ? plan.roots : [folder]) {
        workspaces.push(await openWorkspace(root, { host: plan.host, privatePaths: plan.privatePaths ?? [] }));
      }
      const { server } = await createPaddockMcpServer({
        ...plan.server,
        root: workspaces[0],
        roots: workspaces.slice(1),
        warmUp: plan.server.warmUp === true ? warmUp.signal : plan.server.warmUp,
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        eventStore: new ReplayEventStore(),
        retryInterval: MCP_HTTP_SSE_RETRY_MS,
      });
      const session = new HttpSession(
        id,
        principal,
        folder,
        plan.perSession?.keep ?? false,
        { transport, server, workspaces },
        warmUp,
      );
      // A DELETE closes the transport; so does end(): either way the session's resources go.
      server.onclose = () => void session.end().then(() => onEnd(session));
      await server.connect(transport);
      return session;
    } catch (error) {
      await Promise.all(workspaces.map((workspace) => workspace.close()));
      if (folder !== undefined) await fs.rm(folder, { recursive: true, force: true });
      throw error;
    }
  }

  /**
   * Hands one request of this session to the SDK's transport.
   *
   * @param request The request.
   * @param response Its response.
   * @param body The parsed body of a POST.
   * @returns When the transport has taken it (a stream may stay open after).
   */
  handle(request: IncomingMessage, response: ServerResponse, body?: unknown): Promise<void> {
    return this.#transport.handleRequest(request, response, body);
  }

  /** Whether the SDK's transport took its `initialize` (a refused one leaves a session no client can name). */
  get initialized(): boolean {
    return this.#transport.sessionId !== undefined;
  }

  /**
   * Ends the session: the transport closes (open streams end), every
   * background process of the session is killed (its whole process group),
   * its workspaces' handles are let go, and its per-session folder is removed
   * (unless kept). Safe to call more than once.
   *
   * @returns When all of that is done.
   */
  async end(): Promise<void> {
    if (this.#endStarted) return this.ended;
    this.#endStarted = true;
    this.#warmUp.abort();
    try {
      await this.#server.close().catch(() => {});
      await Promise.all(this.#workspaces.map((workspace) => workspace.close()));
      if (this.folder !== undefined && !this.#keep) await fs.rm(this.folder, { recursive: true, force: true });
    } finally {
      this.#ending?.();
    }
    return this.ended;
  }
}
