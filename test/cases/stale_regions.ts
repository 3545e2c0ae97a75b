/**
 * The stale-write guard on the region: a file is read, then changed by
 * someone else (a formatter), then edited. Each row is replayed by
 * test/stale_regions.test.ts through `edit_file` and an `apply_patch` Update
 * (the same change as a hunk) on every host.
 */

/** A change the edit makes, as `edit_file` arguments and as an `apply_patch` hunk. */
export interface RegionEdit {
  old_string: string;
  new_string: string;
  /** The hunk's lines (after `@@`), the same change. */
  hunk: string;
}

/** One row. */
export interface StaleRegionCase {
  name: string;
  /** The file when the model read it. */
  before: string;
  /** How it was read: whole, or a window. */
  read: { offset?: number; limit?: number };
  /** The file after someone else changed it. */
  changed: string;
  edit: RegionEdit;
  /** Through: the file after the edit and the `changedSinceRead` the result carries (`removed`: lines read gone from there). */
  through?: {
    after: string;
    changedSinceRead: { startLine: number; endLine: number; removed: number; text: string }[];
  };
  /** Refused: `FILE_CHANGED_SINCE_READ`, with the message's tail and the region's current text. */
  refused?: { because: string; region: { startLine: number; endLine: number }; current: string };
}

/** The rows. */
export const STALE_REGION_CASES: readonly StaleRegionCase[] = [
  {
    name: "a formatter changed other lines: the edit goes through and reports them",
    before: "a\nb\nc\nd\ne\n",
    read: {},
    changed: "A\nb\nc\nd\nE\n",
    edit: { old_string: "c", new_string: "C", hunk: " b\n-c\n+C\n d\n" },
    through: {
      after: "A\nb\nC\nd\nE\n",
      changedSinceRead: [
        { startLine: 1, endLine: 1, removed: 1, text: "A\n" },
        { startLine: 5, endLine: 5, removed: 1, text: "E\n" },
      ],
    },
  },
  {
    name: "lines added above and removed below: line numbers are the file's now",
    before: "a\nb\nc\nd\ne\n",
    read: {},
    changed: "import x\nimport y\na\nb\nc\nd\n",
    edit: { old_string: "c", new_string: "C", hunk: " b\n-c\n+C\n d\n" },
    through: {
      after: "import x\nimport y\na\nb\nC\nd\n",
      changedSinceRead: [
        { startLine: 1, endLine: 2, removed: 0, text: "import x\nimport y\n" },
        { startLine: 7, endLine: 6, removed: 1, text: "" },
      ],
    },
  },
  {
    name: "only line endings changed elsewhere (CRLF to LF): reported, the edit kept to its region",
    before: "a\r\nb\r\nc\n",
    read: {},
    changed: "a\nb\r\nc\n",
    edit: { old_string: "c", new_string: "C", hunk: " b\n-c\n+C\n" },
    through: { after: "a\nb\r\nC\n", changedSinceRead: [{ startLine: 1, endLine: 1, removed: 1, text: "a\n" }] },
  },
  {
    name: "a line the edit replaces changed since the read: refused, details show it now",
    before: "a\nb\nc\nd\ne\n",
    read: {},
    changed: "a\nb\nc = 2\nd\ne\n",
    edit: { old_string: "b\nc", new_string: "B\nC", hunk: "-b\n-c = 2\n+B\n+C\n d\n" },
    refused: {
      because: "line 3, which the EDIT replaces, changed since it was read",
      region: { startLine: 2, endLine: 3 },
      current: "b\nc = 2\n",
    },
  },
  {
    name: "a partial read covers only the lines shown: an edit past them in a changed file is refused",
    before: "a\nb\nc\nd\ne\n",
    read: { offset: 1, limit: 2 },
    changed: "a\nb\nc\nd\nE\n",
    edit: { old_string: "d", new_string: "D", hunk: " c\n-d\n+D\n" },
    refused: {
      because: "line 4, which the EDIT replaces, was not in what was read",
      region: { startLine: 4, endLine: 4 },
      current: "d\n",
    },
  },
  {
    name: "a partial read: an edit inside the lines shown goes through; changes past them are not the read's",
    before: "a\nb\nc\nd\ne\n",
    read: { offset: 1, limit: 3 },
    changed: "a\nb\nc\nd\nE\n",
    edit: { old_string: "b", new_string: "B", hunk: " a\n-b\n+B\n c\n" },
    through: { after: "a\nB\nc\nd\nE\n", changedSinceRead: [] },
  },
];
