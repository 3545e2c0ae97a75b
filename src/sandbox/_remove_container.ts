// Removing one container through the Engine API.
import type { EngineClient } from "./docker_engine.ts";

// Force-removes a container (killing it if it runs) with its anonymous volumes, and waits until it is gone.
/** Force-removes a container (killing it if it runs) with its anonymous volumes. */
export async function removeContainer(client: EngineClient, id: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await client.request("DELETE", `/containers/${id}?force=1&v=1`).catch(() => null);
    if (response !== null && (response.status === 204 || response.status === 404)) return;
    // 409: a removal already in progress; anything else: try again shortly (close() sweeps what is left).
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
