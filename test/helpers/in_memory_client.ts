import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";

/**
 * Connects `server` (an MCP server not yet connected) to a new SDK client over an in-memory pair.
 *
 * @example const client = await inMemoryClient((await createPaddockMcpServer({ root })).server);
 */
export async function inMemoryClient(
  server: { connect(transport: InMemoryTransport): Promise<void> },
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1" });
  await client.connect(clientSide);
  return client;
}
