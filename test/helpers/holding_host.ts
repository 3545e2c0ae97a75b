import type { Host } from "../../host.ts";

/**
 * `host`, whose `method` awaits `wait(n)` on its nth call (from 1; `undefined`: at once), before the call or,
 * with `when: "after"`, once it has returned: a call held part-way, or someone else's change at that point.
 */
export function holdingHost(
  host: Host,
  method: "mkdir" | "rename" | "unlink",
  wait: (call: number) => Promise<void> | undefined,
  when: "before" | "after" = "before",
): Host {
  let calls = 0;
  return new Proxy(host, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property !== method) return value.bind(target);
      return async (...args: unknown[]) => {
        const call = ++calls;
        if (when === "before") await wait(call);
        const result = await value.apply(target, args);
        if (when === "after") await wait(call);
        return result;
      };
    },
  });
}
