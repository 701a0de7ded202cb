import * as kplus from 'cdk8s-plus-28';

/** Environment values from the Downward API that node agents commonly need. */
export class DownwardApi {
  /** The node's name (`spec.nodeName`), e.g. for `NODE_NAME`. */
  public static nodeName(): kplus.EnvValue {
    return kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.NODE_NAME);
  }

  /** The pod's name (`metadata.name`), e.g. for `POD_NAME`. */
  public static podName(): kplus.EnvValue {
    return kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAME);
  }

  /** The pod's namespace (`metadata.namespace`), e.g. for `POD_NAMESPACE`. */
  public static podNamespace(): kplus.EnvValue {
    return kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAMESPACE);
  }

  /** The pod's IP (`status.podIP`), e.g. for `POD_IP`. */
  public static podIp(): kplus.EnvValue {
    return kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_IP);
  }

  /** The node's IP (`status.hostIP`), e.g. for `HOST_IP`. */
  public static hostIp(): kplus.EnvValue {
    return kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.NODE_IP);
  }

  /** The container's CPU request, in millicores when `divisor` is '1m'. */
  public static cpuRequest(): kplus.EnvValue {
    return kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.CPU_REQUEST);
  }

  /** The container's CPU limit (the node's allocatable CPU when it has none). */
  public static cpuLimit(): kplus.EnvValue {
    return kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.CPU_LIMIT);
  }

  /** The container's memory request, in bytes. */
  public static memoryRequest(): kplus.EnvValue {
    return kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.MEMORY_REQUEST);
  }

  /** The container's memory limit in bytes, e.g. for `GOMEMLIMIT`. */
  public static memoryLimit(): kplus.EnvValue {
    return kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.MEMORY_LIMIT);
  }
}
