/**
 * Control characters in text people type: C0 (line breaks and tabs included), DEL, C1, and the
 * Unicode line and paragraph separators. A single-line field refuses them all (a name or a title
 * is copied into mail headers and calendar lines, where a line break starts a field of its own);
 * a multi-line one keeps line feed, carriage return and tab. No imports: the web loads it anywhere.
 */

/** Line feed, carriage return and tab: what a multi-line field may hold. */
export const LINE_BREAKS_AND_TABS = ['\n', '\r', '\t'] as const;

function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}

/** Whether `value` holds a control character other than those in `allowed`. */
export function hasControlCharacter(value: string, allowed: readonly string[] = []): boolean {
  for (const char of value) {
    if (isControl(char.codePointAt(0)!) && !allowed.includes(char)) return true;
  }
  return false;
}

/** `value` on one line: every run of control characters becomes one space (for headers, calendar lines). */
export function toOneLine(value: string): string {
  let out = '';
  let inRun = false;
  for (const char of value) {
    if (isControl(char.codePointAt(0)!)) {
      if (!inRun) out += ' ';
      inRun = true;
    } else {
      out += char;
      inRun = false;
    }
  }
  return out;
}
