/**
 * Defaults that several places need, named once.
 *
 * The constructs document each of these in their props' `@default`.
 */

/** @internal The namespace a {@link NodeReporterChart} deploys into. */
export const DEFAULT_NAMESPACE = 'practice-daemon';

/** @internal The node label key of the chart's eligibility policy. */
export const DEFAULT_POLICY_KEY = 'practice-tier';

/** @internal The node label value of the chart's eligibility policy. */
export const DEFAULT_POLICY_VALUE = 'operations';

/** @internal The DaemonSet's `metadata.name`, also its selector label value. */
export const DEFAULT_NAME = 'node-reporter';

/** @internal The reporter's image: busybox pinned to a minor release. */
export const DEFAULT_IMAGE = 'busybox:1.36';

/** @internal Seconds between two reports. */
export const DEFAULT_INTERVAL_SECONDS = 15;

/**
 * The uid and gid the reporter runs as: `nobody` in busybox's /etc/passwd, so
 * the image can use it, and non-root, so Pod Security "restricted" admits it.
 * @internal
 */
export const DEFAULT_RUN_AS_ID = 65534;

/** @internal The label key of the DaemonSet's selector; its value is the DaemonSet's name. */
export const SELECTOR_LABEL_KEY = 'app';

/** @internal The reporter container's name. */
export const CONTAINER_NAME = 'reporter';

/** @internal The variant group of {@link NodeReporterChart}s: alternatives whose objects may share names. */
export const DEFAULT_VARIANT_GROUP = 'node-reporter';
