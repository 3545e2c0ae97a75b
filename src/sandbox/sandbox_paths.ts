/**
 * What the bubblewrap sandbox shows of the host: the system folders, the
 * `/etc` entries, and the private home inside.
 *
 * @module
 */

/** System folders bound read-only (or re-created as the same links) when they exist on the host. */
export const SANDBOX_SYSTEM_PATHS: readonly string[] = Object.freeze([
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
]);

/**
 * The `/etc` entries made visible (read-only, when they exist): name service
 * and DNS configuration, TLS roots, user and group names (`passwd` and `group`
 * hold no password hashes; `shadow` is not included), the dynamic linker's
 * cache, time zone and locale data, and Debian's `alternatives` links (which
 * `/usr/bin/awk` and friends point through).
 */
export const SANDBOX_ETC_ENTRIES: readonly string[] = Object.freeze([
  "/etc/alternatives",
  "/etc/ca-certificates",
  "/etc/crypto-policies",
  "/etc/gai.conf",
  "/etc/group",
  "/etc/host.conf",
  "/etc/hosts",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/locale.alias",
  "/etc/localtime",
  "/etc/mime.types",
  "/etc/nsswitch.conf",
  "/etc/os-release",
  "/etc/passwd",
  "/etc/pki",
  "/etc/protocols",
  "/etc/services",
  "/etc/ssl",
  "/etc/timezone",
]);

/** Inside the sandbox: `HOME` and `TMPDIR` (on the private `/tmp`). */
export const SANDBOX_HOME = "/tmp";
