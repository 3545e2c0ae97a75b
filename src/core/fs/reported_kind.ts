import type { EntryKind } from "../../host.ts";

/** The kinds a tool reports: links are never followed, anything unusual is `other`. */
export type ReportedKind = "file" | "directory" | "symlink" | "other";

/** The kind a tool reports for a host entry kind (a FIFO, socket or device is `other`). */
export function toReportedKind(kind: EntryKind): ReportedKind {
  return kind === "file" || kind === "directory" || kind === "symlink" ? kind : "other";
}
