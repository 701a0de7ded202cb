// Run the manifest checks on your own chart in a unit test, without cdk8s synth.
import { Chart, Testing } from 'cdk8s';
import { checkObject, Finding, formatReport, isBlocking } from 'node-reporter/checks';

/** Fails with a readable report when the chart has a blocking finding. */
export function expectNoBlockingFindings(chart: Chart): void {
  // A loop rather than flatMap, which needs lib es2019 (cdk8s init's tsconfig has es2016).
  const findings: Finding[] = [];
  for (const obj of Testing.synth(chart)) {
    findings.push(...checkObject(obj));
  }
  if (findings.some(isBlocking)) {
    throw new Error(formatReport(findings));
  }
}
