/** `node-reporter version` and `--version`: the package's version. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSIONS } from '../checks/versions';
import { COMMON_OPTIONS, formatOf, parse } from './args';
import { Io } from './io';

/** The package's version, from its package.json (beside lib/ in the sources, beside build/ in the package). */
export function version(): string {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf-8')) as { name?: string; version?: string };
      if (pkg.name === 'node-reporter' && typeof pkg.version === 'string') return pkg.version;
    }
  }
  return 'unknown';
}

/** What `--version` prints: the version, then the Kubernetes versions the checks judge by and the default. */
export function versionText(): string {
  return `${version()}\nKubernetes versions: ${KUBERNETES_VERSIONS.join(', ')} (default ${DEFAULT_KUBERNETES_VERSION})\n`;
}

const VERSION_USAGE = `Usage: node-reporter version [--format text|json]

Prints the package's version and the Kubernetes versions the checks judge by (the same as node-reporter --version
or -v).

  -o, --format text|json    the form (default text); json prints {"version", "kubernetesVersions", "defaultKubernetesVersion"}
  -h, --help                show this help

Exit codes: 0 done, 2 bad usage.`;

/** `node-reporter version`. */
export function versionCommand(args: string[], io: Io): number {
  const { values } = parse('version', { args, options: { format: COMMON_OPTIONS.format, help: COMMON_OPTIONS.help, version: COMMON_OPTIONS.version }, strict: true, allowPositionals: false });
  if (values.help) {
    io.out(`${VERSION_USAGE}\n`);
    return 0;
  }
  const format = formatOf('version', values.format, ['text', 'json']);
  io.out(format === 'json' ? `${JSON.stringify({ version: version(), kubernetesVersions: KUBERNETES_VERSIONS, defaultKubernetesVersion: DEFAULT_KUBERNETES_VERSION })}\n` : versionText());
  return 0;
}

/**
 * What every command does first with `-h/--help` and `-v/--version`: prints
 * its usage or the version and returns exit 0; undefined when neither is set.
 */
export function answerHelpOrVersion(values: { readonly help?: boolean; readonly version?: boolean }, usage: string, io: Io): number | undefined {
  if (values.help) {
    io.out(`${usage}\n`);
    return 0;
  }
  if (values.version) {
    io.out(versionText());
    return 0;
  }
  return undefined;
}
