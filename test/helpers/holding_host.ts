import type { Host, HostFile } from "../../host.ts";

/**
 * `host`, whose `method` awaits `wait(n, args)` on its nth call (from 1; `undefined`: at once), before the call or,
 * with `when: "after"`, once it has returned: a call held part-way, or someone else's change at that point.
 * `"close"` is the closing of a file the host opened (`open`'s files are wrapped).
 */
export function holdingHost(
  host: Host,
  method: "mkdir" | "rename" | "unlink" | "close",
  wait: (call: number, args: unknown[]) => Promise<void> | undefined,
  when: "before" | "after" = "before",
): Host {
  let calls = 0;
  const held = async <T>(args: unknown[], run: () => Promise<T>): Promise<T> => {
    const call = ++calls;
    if (when === "before") await wait(call, args);
    const result = await run();
    if (when === "after") await wait(call, args);
    return result;
  };
  return new Proxy(host, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (method === "close" && property === "open") {
        return async (path: string, options: Parameters<Host["open"]>[1]) => {
          const file: HostFile = await target.open(path, options);
          const wrapped: HostFile = {
            read: (buffer, position) => file.read(buffer, position),
            write: (data, position) => file.write(data, position),
            sync: () => file.sync(),
            stat: () => file.stat(),
            close: () => held([path], () => file.close()),
          };
          if (file.chmod !== undefined) wrapped.chmod = (mode) => (file.chmod as (mode: number) => Promise<void>)(mode);
          return wrapped;
        };
      }
      if (property !== method) return value.bind(target);
      return (...args: unknown[]) => held(args, () => value.apply(target, args));
    },
  });
}
