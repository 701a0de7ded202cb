/**
 * The flag conventions every command shares: `--format`/`-o`,
 * `--fail-on-warnings` (`--strict`), `--help`/`-h`, `--version`/`-v`, and
 * parse errors made short and helpful (an unknown flag names the one meant).
 */
import { parseArgs, ParseArgsConfig } from 'node:util';
import { printable } from '../eligibility/printable';
import { editDistance } from '../k8s/syntax';

/** Bad usage: one line, with where to read the usage. */
export class UsageError extends Error {
  constructor(message: string, readonly command?: string) {
    super(message);
  }
}

/** The output forms; `check` also writes SARIF. */
export type Format = 'text' | 'json' | 'markdown' | 'sarif';

/** The options every command takes. */
export const COMMON_OPTIONS = {
  'format': { type: 'string', short: 'o' },
  'fail-on-warnings': { type: 'boolean' },
  'strict': { type: 'boolean' },
  'help': { type: 'boolean', short: 'h' },
  'version': { type: 'boolean', short: 'v' },
} as const;

/** The common options' lines of a command's usage. */
export function commonUsage(formats: readonly Format[], warnings: string): string {
  return [
    `${`  -o, --format ${formats.join('|')}`.padEnd(27)} the report's form (default text)`,
    `  --fail-on-warnings        ${warnings} (alias --strict)`,
    '  -v, --version             print the version',
    '  -h, --help                show this help',
  ].join('\n');
}

/**
 * Flags of other tools (and of older releases) that people type, and what they
 * are here: `check --json` says to use `--format json`.
 */
const MEANT: Readonly<Record<string, string>> = {
  '--json': '--format json',
  '--yaml': '--format text',
  '--markdown': '--format markdown',
  '--md': '--format markdown',
  '--sarif': '--format sarif',
  '--output': '--format',
  '--warnings-as-errors': '--fail-on-warnings',
  '--fail-on-warning': '--fail-on-warnings',
  '--kube-version': '--kubernetes-version',
  '--k8s-version': '--kubernetes-version',
};

/** The candidate nearest to a misspelt word (at most 2 edits), if any. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const scored = candidates.map((c) => [c, editDistance(word, c)] as const).filter(([, d]) => d <= 2).sort((a, b) => a[1] - b[1]);
  return scored[0]?.[0];
}

/**
 * parseArgs, strict, with its errors made short: the option, and the one
 * meant. A command spreads COMMON_OPTIONS into its options.
 */
export function parse<T extends ParseArgsConfig>(command: string, config: T): ReturnType<typeof parseArgs<T>> {
  const options = config.options ?? {};
  try {
    return parseArgs(config);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const message = (e as Error).message;
    const unknown = /^Unknown option '([^']+)'/.exec(message);
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
      const flag = unknown[1].split('=')[0];
      const flags = Object.keys(options).map((o) => `--${o}`);
      const known = MEANT[flag];
      const meant = known !== undefined && flags.includes(known.split(' ')[0]) ? known : nearest(flag, flags);
      throw new UsageError(`unknown option ${printable(unknown[1], true)}${meant ? `; did you mean ${meant}?` : ''}`, command);
    }
    const positional = /^Unexpected argument '([^']+)'/.exec(message);
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && positional) {
      throw new UsageError(`unexpected argument ${printable(positional[1], true)}`, command);
    }
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      throw new UsageError(printable(message.split('\n')[0]), command);
    }
    throw e;
  }
}

/** The --format value, checked against the forms this command writes. */
export function formatOf(command: string, value: string | undefined, allowed: readonly Format[]): Format {
  const format = value ?? 'text';
  if (!(allowed as readonly string[]).includes(format)) {
    const list = `${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}`;
    throw new UsageError(`--format must be ${list} but got ${printable(format, true)}`, command);
  }
  return format as Format;
}

/** Whether warnings fail the command: --fail-on-warnings or its alias --strict. */
export function failOnWarnings(values: { readonly 'fail-on-warnings'?: boolean; readonly 'strict'?: boolean }): boolean {
  return values['fail-on-warnings'] === true || values.strict === true;
}
