/**
 * The corpus answers the checks do not give yet at a version, each with the
 * reason: `<id>@<version>` for a verdict, `<id>@<version> warnings` for the
 * server's warnings. corpus.test.ts holds these to disagree (so that an entry
 * goes as soon as the checks give the answer) and every other pair to agree;
 * e2e/agreement.ts prints them apart from the unexplained disagreements. The
 * list is meant to be empty: the checks judge by the version they are given.
 */
export const PENDING: Readonly<Record<string, string>> = {};
