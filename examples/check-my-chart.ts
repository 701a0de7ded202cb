// Run the manifest checks on your own chart in a unit test, without cdk8s synth.
import { Chart, Testing } from 'cdk8s';
import { checkObjects, formatReport, isBlocking } from 'node-reporter/checks';

/** Fails with a readable report when the chart has a blocking finding. */
export function expectNoBlockingFindings(chart: Chart): void {
  // checkObjects judges the objects together (a Namespace's Pod Security labels, a CRD and its resources).
  const findings = checkObjects(Testing.synth(chart));
  if (findings.some(isBlocking)) {
    throw new Error(formatReport(findings));
  }
}
