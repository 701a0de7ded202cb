/**
 * Text from an input file, made safe for a terminal: control characters,
 * and the invisible or bidirectional ones that can disguise text, are
 * escaped as \uXXXX. Names from a node list are printed through this.
 */

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/**
 * The text with unsafe characters escaped; quoted (as JSON) when `quote` is
 * set, or when it is empty or had anything to escape.
 */
export function printable(text: string, quote = false): string {
  const escaped = text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (quote || escaped !== text || text === '') {
    return `"${escaped.replace(/\\(?!u[0-9a-f]{4})/g, '\\\\').replace(/"/g, '\\"')}"`;
  }
  return text;
}

/**
 * JSON text with the same characters escaped (as \uXXXX, which JSON parses
 * back to the same string), so that printing it never garbles a terminal.
 */
export function printableJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Multi-line text with each line's unsafe characters escaped, unquoted: for reports. */
export function printableLines(text: string): string {
  return text.split('\n').map((line) => line.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join('\n');
}
