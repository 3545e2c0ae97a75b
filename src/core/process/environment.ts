/**
 * Variables a child process gets from the parent's environment by default:
 * what programs need to find executables, text encodings and temp folders,
 * and nothing that usually holds a secret. Anything else must be named in
 * `inheritEnv` or given in `env`.
 */
export const MINIMAL_ENVIRONMENT_NAMES: readonly string[] = Object.freeze([
  "PATH",
  "HOME",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  "TEMP",
  "TMP",
  // Windows needs these to start most programs.
  "SYSTEMROOT",
  "WINDIR",
  "COMSPEC",
  "PATHEXT",
  "SYSTEMDRIVE",
  "USERPROFILE",
]);

/**
 * The environment of a child process: the minimal variables and those named
 * in `inherit`, copied from `parent` when set there, then `extra` on top.
 * Names match case-insensitively (Windows spells them in any case).
 */
export function childEnvironment(
  parent: Record<string, string>,
  inherit: readonly string[],
  extra: Readonly<Record<string, string>>,
): Record<string, string> {
  const wanted = new Set([...MINIMAL_ENVIRONMENT_NAMES, ...inherit].map((name) => name.toUpperCase()));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (wanted.has(name.toUpperCase())) env[name] = value;
  }
  return Object.assign(env, extra);
}
