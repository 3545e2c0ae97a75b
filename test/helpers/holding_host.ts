import type { Host } from "../../host.ts";

/**
 * `host`, whose `method` first awaits `wait(n)` on its nth call (from 1; `undefined`: at once): a call held
 * part-way while the test runs another.
 */
export function holdingHost(
  host: Host,
  method: "mkdir" | "rename" | "unlink",
  wait: (call: number) => Promise<void> | undefined,
): Host {
  let calls = 0;
  return new Proxy(host, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property !== method) return value.bind(target);
      return async (...args: unknown[]) => {
        await wait(++calls);
        return await value.apply(target, args);
      };
    },
  });
}
