/**
 * A wrapper around any host object that counts every method call — on the
 * host and, recursively, on every object a method returns or resolves to
 * (file handles, directory handles) — and can run a hook just before the Nth.
 * Plain data (stats, entry lists, byte arrays, strings) passes through as is.
 *
 * The single-swap harness uses it to swap a folder for a link at exactly one
 * point of a tool's call sequence; the memory host's race uses it to swap at
 * random calls. It also tracks handles: a returned object with a `close`
 * method is open until that method is called.
 *
 * @module
 */

/** What a wrapped host has seen. */
export interface CallLog {
  /** Method calls so far (host and handles), numbered from 1. */
  calls: number;
  /** The name of each call (`lstat`, `open→read`, …), when recording. */
  names: string[];
  /** Handles returned (objects with a `close` method) whose `close` was never called. */
  unclosedHandles(): number;
}

/** Options of {@link wrapHost}. */
export interface WrapOptions {
  /** Runs synchronously just before call number `n` is forwarded. */
  beforeCall?: (n: number, name: string) => void;
  /** Keep every call's name in {@link CallLog.names}. @default false */
  record?: boolean;
}

function isPlainData(value: unknown): boolean {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return true;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || Array.isArray(value)) return true;
  if (typeof value === "function") return false;
  // An object is a handle if it (or its prototype chain, below Object.prototype) has a method.
  for (
    let at: object | null = value as object;
    at !== null && at !== Object.prototype;
    at = Object.getPrototypeOf(at)
  ) {
    for (const key of Reflect.ownKeys(at)) {
      if (key === "constructor") continue;
      const descriptor = Object.getOwnPropertyDescriptor(at, key);
      if (descriptor !== undefined && typeof descriptor.value === "function") return false;
    }
  }
  return true;
}

/**
 * Wraps `host` in a counting Proxy.
 *
 * @returns The wrapped host (use it wherever the host goes) and its {@link CallLog}.
 */
export function wrapHost<T extends object>(host: T, options: WrapOptions = {}): { host: T; log: CallLog } {
  const proxies = new WeakMap<object, object>();
  const handles = new Set<object>();
  const closed = new WeakSet<object>();
  const log: CallLog = {
    calls: 0,
    names: [],
    unclosedHandles: () => [...handles].filter((handle) => !closed.has(handle)).length,
  };

  const adopt = (result: unknown, name: string): unknown => {
    if (result instanceof Promise) return result.then((value) => adopt(value, name));
    if (isPlainData(result)) return result;
    return wrap(result as object, name);
  };

  const wrap = <O extends object>(target: O, label: string): O => {
    const existing = proxies.get(target);
    if (existing !== undefined) return existing as O;
    if (label !== "" && typeof (target as { close?: unknown }).close === "function") handles.add(target);
    const methods = new Map<PropertyKey, unknown>();
    const proxy = new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property, object);
        if (typeof value !== "function") return value;
        const cached = methods.get(property);
        if (cached !== undefined) return cached;
        const name = label === "" ? String(property) : `${label}→${String(property)}`;
        const method = (...args: unknown[]): unknown => {
          const n = ++log.calls;
          if (options.record) log.names.push(name);
          options.beforeCall?.(n, name);
          if (property === "close") closed.add(object);
          // Called on the real object: class handles with private fields need their own `this`.
          return adopt((value as (...a: unknown[]) => unknown).apply(object, args), name);
        };
        methods.set(property, method);
        return method;
      },
    });
    proxies.set(target, proxy);
    return proxy;
  };

  return { host: wrap(host, ""), log };
}

/** How a single swap is placed: left in place, or undone just before the next call. */
export type SwapMode = "stay" | "swap-back";

/** The two swap modes, in the order the enumeration runs them. */
export const SWAP_MODES: readonly SwapMode[] = ["stay", "swap-back"];

/**
 * A `beforeCall` hook that runs `swap` just before call `at`, and (in
 * `swap-back` mode) `unswap` just before call `at + 1`.
 *
 * @returns The hook, and `state()`: whether the swap happened and whether it was undone.
 */
export function swapAtCall(
  at: number,
  mode: SwapMode,
  swap: () => void,
  unswap: () => void,
): { beforeCall: (n: number) => void; state: () => { swapped: boolean; unswapped: boolean } } {
  let swapped = false;
  let unswapped = false;
  return {
    beforeCall: (n) => {
      if (n === at) {
        swap();
        swapped = true;
      } else if (mode === "swap-back" && n === at + 1 && swapped) {
        unswap();
        unswapped = true;
      }
    },
    state: () => ({ swapped, unswapped }),
  };
}
