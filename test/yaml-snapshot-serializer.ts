/**
 * Stores synthesized manifests in snapshots as plain YAML, so that a reviewer
 * reads the same text as in dist/, without quotes or escapes around it.
 */
module.exports = {
  test: (value: unknown): boolean => typeof value === 'string' && value.startsWith('apiVersion: '),
  serialize: (value: string): string => value.trimEnd(),
};
