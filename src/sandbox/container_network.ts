/**
 * The container sandbox's way out for `network: { allow }`: an internal bridge
 * network (no route past the bridge, no IPv6) and a proxy listener on that
 * network's gateway address, which on Docker Engine for Linux is the host's
 * own interface on the bridge. The listener drops any peer outside the
 * network's subnet before reading a byte.
 *
 * @module
 */
import { WorkspaceError } from "../core/errors.ts";
import { type EngineClient, engineMessage } from "./docker_engine.ts";
import type { EgressEndpoint, ProxyListener } from "./egress_endpoint.ts";

/** The network and the proxy listener containers reach it through. */
export interface EgressNetwork {
  /** The network's name (containers join it by name). */
  name: string;
  /** The network's id. */
  id: string;
  /** The gateway address (the host's address on the bridge); the proxy listens there. */
  gateway: string;
  /** The network's IPv4 subnet; the only peers the listener serves. */
  subnet: string;
  /** Whether this sandbox created the network (and so removes it on close). */
  created: boolean;
  /** The proxy's listener on the gateway. */
  listener: ProxyListener;
  /** `http://<gateway>:<port>`. */
  proxyUrl: string;
}

interface NetworkInspect {
  Id?: string;
  Name?: string;
  Internal?: boolean;
  EnableIPv6?: boolean;
  IPAM?: { Config?: Array<{ Subnet?: string; Gateway?: string }> };
}

function unavailable(detail: string): WorkspaceError {
  return new WorkspaceError("SANDBOX_UNAVAILABLE", `Cannot start the sandbox: ${detail}`);
}

function notIsolating(name: string, why: string): WorkspaceError {
  return new WorkspaceError(
    "SANDBOX_EGRESS_UNSUPPORTED",
    `Cannot use network '${name}' for the sandbox's egress: ${why}`,
    {
      hint:
        "name a network of your own that is internal (docker network create --internal), or leave networkName unset",
    },
  );
}

async function inspect(client: EngineClient, name: string): Promise<NetworkInspect | null> {
  const response = await client.request("GET", `/networks/${encodeURIComponent(name)}`);
  if (response.status === 404) return null;
  if (response.status !== 200) throw unavailable(`cannot inspect network '${name}': ${engineMessage(response)}`);
  return response.body as NetworkInspect;
}

/**
 * Finds or creates the internal network and starts the gateway listener.
 *
 * @param client The engine.
 * @param options The network's name and labels, the proxy, the hosts this listener adds to its allowlist.
 * @returns The network and listener.
 * @throws {WorkspaceError} `SANDBOX_EGRESS_UNSUPPORTED` for an existing network that is not internal or has IPv6;
 *   `SANDBOX_UNAVAILABLE` when the network cannot be made or the proxy cannot listen on its gateway.
 */
export async function openEgressNetwork(
  client: EngineClient,
  options: { name: string; labels: Record<string, string>; endpoint: EgressEndpoint; allow: readonly string[] },
): Promise<EgressNetwork> {
  let created = false;
  let network = await inspect(client, options.name);
  if (network === null) {
    const response = await client.request("POST", "/networks/create", {
      Name: options.name,
      Driver: "bridge",
      Internal: true,
      EnableIPv6: false,
      Attachable: false,
      Labels: options.labels,
    });
    // 409: another process made it a moment ago; it is checked like any reused network.
    if (response.status === 201) created = true;
    else if (response.status !== 409) {
      throw unavailable(`cannot create network '${options.name}': ${engineMessage(response)}`);
    }
    network = await inspect(client, options.name);
    if (network === null) throw unavailable(`network '${options.name}' vanished after it was created`);
  }
  const id = network.Id ?? options.name;
  const removeIfOurs = async () => {
    if (created) await client.request("DELETE", `/networks/${encodeURIComponent(id)}`).catch(() => undefined);
  };
  if (network.Internal !== true) {
    throw notIsolating(options.name, "it is not internal, so containers on it could reach anything the host can");
  }
  if (network.EnableIPv6 === true) throw notIsolating(options.name, "it has IPv6, which this sandbox does not confine");
  const config = (network.IPAM?.Config ?? []).find((entry) =>
    entry.Gateway !== undefined && entry.Subnet !== undefined && !entry.Subnet.includes(":")
  );
  if (config === undefined) {
    await removeIfOurs();
    throw unavailable(`network '${options.name}' has no IPv4 gateway for the egress proxy`);
  }
  const gateway = config.Gateway as string;
  const subnet = config.Subnet as string;
  let listener: ProxyListener;
  try {
    listener = await options.endpoint.listen({ host: gateway, port: 0, clients: subnet, allow: options.allow });
  } catch (error) {
    await removeIfOurs();
    throw new WorkspaceError(
      "SANDBOX_UNAVAILABLE",
      "Cannot start the sandbox: its egress proxy cannot listen on the network's gateway",
      {
        hint: "the engine must run on this machine, with the bridge's gateway address on a local interface",
        cause: error,
      },
    );
  }
  listener.unref();
  return { name: options.name, id, gateway, subnet, created, listener, proxyUrl: `http://${gateway}:${listener.port}` };
}

/**
 * Stops the listener and removes the network if this sandbox made it.
 *
 * @param client The engine.
 * @param network What {@link openEgressNetwork} returned.
 */
export async function closeEgressNetwork(client: EngineClient, network: EgressNetwork): Promise<void> {
  await network.listener.close();
  if (network.created) {
    await client.request("DELETE", `/networks/${encodeURIComponent(network.id)}`).catch(() => undefined);
  }
}
