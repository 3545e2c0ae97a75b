import type { EntryKind } from "../host.ts";

/** The kinds a tool reports: links are never followed, anything unusual is `other`. */
export type ReportedKind = "file" | "directory" | "symlink" | "other";

/** The reported kind of a host entry kind. */
export function reportedKind(kind: EntryKind): ReportedKind {
  return kind === "file" || kind === "directory" || kind === "symlink" ? kind : "other";
}
