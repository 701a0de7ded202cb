/**
 * The variants an app synthesizes: all of them, or those named in a
 * comma-separated selection such as the `NODE_REPORTER_VARIANTS` environment
 * variable (`v2`, or `v1,v2`). A Helm chart, for one, holds one variant.
 *
 * @param all every variant the app knows, in order
 * @param selection the variants wanted; all when undefined or empty
 * @returns the selected variants, in the order of `all`
 */
export function selectVariants(all: readonly string[], selection?: string): string[] {
  if (selection === undefined || selection.trim() === '') {
    return [...all];
  }
  const wanted = selection.split(',').map((v) => v.trim());
  for (const variant of wanted) {
    if (!all.includes(variant)) {
      throw new Error(`'NODE_REPORTER_VARIANTS' must list variants among ${all.join(', ')} but got ${JSON.stringify(variant)}`);
    }
  }
  return all.filter((v) => wanted.includes(v));
}
