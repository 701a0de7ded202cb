import { ApiObject, Chart, JsonPatch } from 'cdk8s';

/**
 * A Chart stamps its namespace on every object; a cluster-scoped one
 * (Namespace, ClusterRole, ClusterRoleBinding, PriorityClass, ...) must not
 * carry it, so this removes it from the object's manifest.
 * @internal
 */
export function clusterScoped(obj: ApiObject): void {
  if (Chart.of(obj).namespace !== undefined) {
    obj.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
  }
}
