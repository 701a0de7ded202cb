/**
 * Text from an input file, made safe for a terminal: control characters,
 * and the invisible or bidirectional ones that can disguise text, are
 * escaped as \uXXXX. Names from a node list are printed through this.
 */

import { escapeUnprintable, printable } from '../k8s/syntax';

export { printable };

/**
 * JSON text with the same characters escaped (as \uXXXX, which JSON parses
 * back to the same string), so that printing it never garbles a terminal.
 * @internal
 */
export function printableJson(value: unknown): string {
  return escapeUnprintable(JSON.stringify(value));
}

/** @internal Multi-line text with each line's unsafe characters escaped, unquoted: for reports. */
export function printableLines(text: string): string {
  return text.split('\n').map(escapeUnprintable).join('\n');
}

/** @internal A value from the input as a message shows it: a string quoted, anything else as JSON, made safe for a terminal. */
export function shown(value: unknown): string {
  return typeof value === 'string' ? printable(value, true) : printable(JSON.stringify(value) ?? String(value));
}

/** @internal Text from an input as one Markdown table cell: made printable, with pipes, backticks, angle brackets and line breaks escaped. */
export function markdownCell(text: string): string {
  return escapeUnprintable(text).replace(/\\/g, '\\\\').replace(/([|`*_[\]<>])/g, '\\$1').replace(/\r?\n/g, ' ');
}
