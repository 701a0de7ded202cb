/**
 * The rbac step of `npm run e2e:agents`: for every applied file, what its
 * RBAC grants and what it does not, asked of the authorizer as the
 * workloads' service accounts (`kubectl auth can-i --as=`, or a
 * SubjectAccessReview where kubectl cannot name the resource).
 */
import { apply, Created, missingImages, oneLine, short } from './agents-support';
import { evidence, Json, kubectl, kubectlAsync, step, StepFailed } from './kubectl';
import { AccessAttributes, AccessCheck, accessChecks, describe, PolicyRule, readManifest, servedName, subjectAccessReview, WORKLOAD_KINDS } from './manifests';

function serverRules(kind: 'ClusterRole' | 'Role', name: string, namespace?: string): PolicyRule[] | undefined {
  const got = kubectl(['get', kind.toLowerCase(), name, ...namespace ? ['-n', namespace] : [], '-o', 'json'], { allowFail: true });
  return got.ok ? JSON.parse(got.out).rules ?? [] : undefined;
}

async function inBatches<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    results.push(...await Promise.all(items.slice(i, i + size).map(run)));
  }
  return results;
}

/** `get apps/daemonsets/kured in kube-system as system:serviceaccount:...`, for the printed questions. */
function sarQuestion(a: AccessAttributes): string {
  const r = a.resource;
  if (r === undefined) {
    return `${a.verb} ${a.path} as ${a.user}`;
  }
  const what = [r.group || 'core', r.resource, r.subresource, r.name].filter((x) => x !== undefined).join('/');
  return `${a.verb} ${what} ${r.namespace ? `in ${r.namespace}` : 'in every namespace'} as ${a.user}`;
}

/** The authorizer's yes or no to each question, from SubjectAccessReviews created in one kubectl call. */
async function reviewAll(questions: AccessAttributes[]): Promise<string[]> {
  if (questions.length === 0) {
    return [];
  }
  const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: questions.map(subjectAccessReview) });
  const r = await kubectlAsync(['create', '--validate=false', '-f', '-', '-o', 'jsonpath={.status.allowed}{"\\n"}'], list);
  const said = r.out.trim().split('\n');
  if (!r.ok || said.length !== questions.length) {
    throw new StepFailed(`kubectl create of ${questions.length} SubjectAccessReviews: ${(r.err || r.out).trim().split('\n')[0]}`);
  }
  return said.map((a) => (a === 'true' ? 'yes' : a === 'false' ? 'no' : a));
}

/** The rbac step: every applied file's RBAC (and the --rbac files', applied without their workloads) asked of the authorizer, for each of its service accounts. */
export async function rbac(rbacOnly: string[], node: Json, created: Created): Promise<void> {
  for (const file of rbacOnly) {
    const objects = readManifest(file);
    const kept = objects.filter((x) => !WORKLOAD_KINDS.has(x.kind));
    const left = objects.filter((x) => WORKLOAD_KINDS.has(x.kind));
    step(`rbac: ${short(file)} applied without its workloads (${left.map(describe).join(', ') || 'none'}${left.length ? `; not on the node: ${missingImages(objects, node).join(', ') || 'none'}` : ''})`);
    created.applied(file, kept);
    evidence(`kubectl apply --validate=strict: ${oneLine(apply(file, kept))}`);
  }
  // What kubectl auth can-i can name: the resources the server serves, as `pods` or `daemonsets.apps`.
  const served = new Set(kubectl(['api-resources', '-o', 'name']).out.trim().split('\n'));
  for (const file of created.files()) {
    const objects = readManifest(file);
    let checks: AccessCheck[];
    try {
      checks = accessChecks(objects, serverRules);
    } catch (e) {
      throw new StepFailed(`${short(file)}: ${(e as Error).message}`);
    }
    if (checks.length === 0) {
      continue;
    }
    step(`rbac: ${short(file)}: the authorizer's answers for its service accounts (kubectl auth can-i)`);
    // kubectl cannot name a resource the server does not serve (a CRD's, a removed group's):
    // those go to the authorizer directly, as SubjectAccessReviews, all in one kubectl call.
    const direct = checks.filter((c) => { const n = servedName(c.attributes); return n !== undefined && !served.has(n); });
    const reviews = await reviewAll(direct.map((c) => c.attributes));
    const answers = await inBatches(checks, 8, async (c) => {
      const i = direct.indexOf(c);
      if (i >= 0) {
        return { check: c, said: reviews[i], asked: `SubjectAccessReview ${sarQuestion(c.attributes)} (${servedName(c.attributes)} is not served here: kubectl auth can-i cannot name it)` };
      }
      const r = await kubectlAsync(['auth', 'can-i', ...c.args]);
      return { check: c, said: r.out.trim() || r.err.trim(), asked: `kubectl auth can-i ${c.args.join(' ')}` };
    });
    const wrong = answers.filter((a) => a.said !== a.check.want);
    for (const a of answers) {
      console.log(`   ${a.said === a.check.want ? 'ok' : 'WRONG'}: ${a.said.padEnd(3)} ${a.asked}   (${a.check.want === 'yes' ? 'granted by' : 'not granted:'} ${a.check.why})`);
    }
    if (wrong.length > 0) {
      throw new StepFailed(`${short(file)}: the authorizer answered ${wrong.length} of ${answers.length} questions otherwise than the manifest's RBAC implies: ${wrong.map((a) => `"${a.said}" to ${a.asked} (wanted ${a.check.want})`).join('; ')}`);
    }
    evidence(`${answers.filter((a) => a.check.want === 'yes').length} yes and ${answers.filter((a) => a.check.want === 'no').length} no, as the rules say`);
  }
}
