// Names Windows resolves to devices whatever the folder or extension
// ("nul.txt" opens the NUL device). COM and LPT also take superscript digits.
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|conin\$|conout\$|com[1-9¹²³]|lpt[1-9¹²³])$/i;

/**
 * Why Windows would not take one path segment literally, or `null` when it
 * would: a colon (an alternate data stream, or a drive), a final dot or
 * space (Win32 strips them, so `a.` names `a` and `.. ` names the parent),
 * or a device name (`CON`, `nul.txt`, `Com1.log`, …). `.` and `..`
 * themselves are the caller's business.
 *
 * @param segment One path segment (no separators).
 * @returns The reason, as the detail of an error message, or `null`.
 */
export function windowsNameProblem(segment: string): string | null {
  if (segment.includes(":")) return "segments may not hold a colon";
  if (segment.endsWith(".") || segment.endsWith(" ")) return "segments may not end in a dot or a space";
  const base = segment.split(".")[0].trimEnd();
  if (WINDOWS_DEVICE_NAME.test(base)) return "Windows device names are not allowed";
  return null;
}
