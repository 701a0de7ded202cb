// Run the manifest checks on your own chart in a unit test, without cdk8s synth.
import { Chart, Testing } from 'cdk8s';
import { checkObject, formatReport, isBlocking } from 'node-reporter/checks';

/** Fails with a readable report when the chart has a blocking finding. */
export function expectNoBlockingFindings(chart: Chart): void {
  const findings = Testing.synth(chart).flatMap((obj) => checkObject(obj));
  if (findings.some(isBlocking)) {
    throw new Error(formatReport(findings));
  }
}
