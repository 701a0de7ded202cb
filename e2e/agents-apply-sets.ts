/**
 * The prune and switch steps of `npm run e2e:agents`: kubectl ApplySet
 * pruning on the real cluster, and the README's recipe that switches a chart
 * off the Namespace it owned without deleting it.
 */
import { Options } from './agents-options';
import { apply, Created, daemonSetsOf, deleteAndCheck, labelNodeFor, leftOver, missingImages, oneLine, short } from './agents-support';
import { evidence, Json, kubectl, step, StepFailed } from './kubectl';
import { describe, getArgs, isClusterScoped, K8sObject, readManifest } from './manifests';

function applySetName(objects: K8sObject[], namespace: string): string {
  return daemonSetsOf(objects)[0]?.metadata.name ?? namespace;
}

/** The namespace of every namespaced object of the file: an ApplySet parent lives in one. */
function singleNamespace(objects: K8sObject[], file: string): string {
  const namespaces = [...new Set(objects.filter((x) => !isClusterScoped(x)).map((x) => x.metadata.namespace ?? 'default'))];
  if (namespaces.length !== 1) {
    throw new StepFailed(`--prune: ${short(file)} must keep its namespaced objects in one namespace (kubectl refuses others with the ApplySet's -n), but has ${namespaces.join(', ') || 'none'}`);
  }
  return namespaces[0];
}

export async function prune(oldFile: string, newFile: string, node: Json, o: Options, created: Created): Promise<void> {
  const before = readManifest(oldFile);
  const after = readManifest(newFile);
  const namespace = singleNamespace(before, oldFile);
  const name = applySetName(before, namespace);
  const dropped = before.filter((b) => !after.some((a) => describe(a) === describe(b)));
  if (dropped.length === 0) {
    throw new StepFailed(`--prune: ${short(newFile)} drops no object of ${short(oldFile)}`);
  }
  if (missingImages([...before, ...after], node).length > 0) {
    throw new StepFailed(`--prune: the images ${missingImages([...before, ...after], node).join(', ')} are not on the node`);
  }
  const env = { KUBECTL_APPLYSET: 'true' };
  const flags = ['--prune', `--applyset=${name}`, '-n', namespace];
  step(`prune: install ${short(oldFile)}, upgrade to ${short(newFile)} (drops ${dropped.map(describe).join(', ')}) with kubectl ApplySet pruning`);
  const present = leftOver([oldFile, newFile]);
  if (present.length > 0) {
    throw new StepFailed(`--prune: ${present.join(', ')} exist before the install (run the lifecycle step before prune)`);
  }
  labelNodeFor(before, node, created);
  // A namespace that exists already (kube-system, say) is not this run's to delete at cleanup.
  if (!kubectl(['get', 'namespace', namespace], { allowFail: true }).ok) {
    created.createdNamespace(namespace);
  }
  created.applied(oldFile, before);
  // The parent (a Secret) lives in the namespace, which must exist first.
  const ns = kubectl(['create', 'namespace', namespace, '--dry-run=client', '-o', 'yaml']).out;
  evidence(`kubectl create namespace ${namespace} --dry-run=client -o yaml | kubectl apply -f -: ${oneLine(kubectl(['apply', '-f', '-'], { input: ns }).out)}`);
  evidence(`KUBECTL_APPLYSET=true kubectl apply ${flags.join(' ')} -f ${short(oldFile)}: ${oneLine(apply(oldFile, undefined, flags, env))}`);
  const members = kubectl(['get', '-f', oldFile, '-o', 'jsonpath={range .items[*]}{.metadata.labels.applyset\\.kubernetes\\.io/part-of}{"\\n"}{end}']).out.trim().split('\n');
  if (members.length !== before.length || members.some((m) => !m.startsWith('applyset-'))) {
    throw new StepFailed(`not every object of ${short(oldFile)} is labelled as a member of the ApplySet: ${JSON.stringify(members)}`);
  }
  evidence(`all ${before.length} objects labelled applyset.kubernetes.io/part-of=${members[0]}`);
  created.applied(newFile, after);
  const upgraded = apply(newFile, undefined, flags, env);
  const prunedLines = upgraded.split('\n').filter((l) => / pruned$/.test(l.trim()));
  evidence(`KUBECTL_APPLYSET=true kubectl apply ${flags.join(' ')} -f ${short(newFile)}:\n      ${upgraded.trim().split('\n').join('\n      ')}`);
  const stillThere = dropped.filter((d) => kubectl(['get', ...getArgs(d), '--ignore-not-found', '-o', 'name']).out.trim() !== '').map(describe);
  if (stillThere.length > 0 || prunedLines.length !== dropped.length) {
    throw new StepFailed(`the upgrade to ${short(newFile)} did not prune ${stillThere.join(', ') || `all it drops (${prunedLines.length} pruned of ${dropped.length})`}`);
  }
  const kept = leftOver([newFile]);
  if (kept.length !== after.length) {
    throw new StepFailed(`after the upgrade, ${after.length - kept.length} objects of ${short(newFile)} are missing: ${kept.join(', ')}`);
  }
  evidence(`pruned ${dropped.map(describe).join(', ')}; the ${after.length} objects of ${short(newFile)} remain`);
  step(`prune: uninstall: kubectl delete -f ${short(newFile)} leaves nothing, the ApplySet's parent Secret included`);
  evidence(await deleteAndCheck([oldFile, newFile], o));
  const parent = kubectl(['get', 'secret', name, '-n', namespace, '--ignore-not-found', '-o', 'name'], { allowFail: true }).out.trim();
  if (parent !== '') {
    throw new StepFailed(`the ApplySet parent ${parent} in ${namespace} is left`);
  }
  evidence(`no ApplySet parent secret/${name} left in ${namespace}`);
}

/** The namespace's phase, or undefined when it does not exist. */
function namespacePhase(namespace: string): string | undefined {
  const got = kubectl(['get', 'namespace', namespace, '-o', 'jsonpath={.status.phase}'], { allowFail: true });
  return got.ok ? got.out.trim() : undefined;
}

/** The other team's ConfigMap and the namespace around it must be there, Active. */
function othersSurvive(namespace: string, other: string, when: string): string {
  const phase = namespacePhase(namespace);
  const left = kubectl(['get', 'configmap', other, '-n', namespace, '--ignore-not-found', '-o', 'name'], { allowFail: true }).out.trim();
  if (phase !== 'Active' || left === '') {
    throw new StepFailed(`${when}: namespace ${namespace} is ${phase ?? 'gone'}${left === '' ? `, and configmap/${other} with it` : ''}: the recipe deleted what the library did not create`);
  }
  return `${when}: namespace/${namespace} Active, and configmap/${other} (another team's) still in it`;
}

/**
 * The switch of namespace ownership, as the README says it: an agent
 * installed with the ApplySet recipe owns its Namespace (the object is in its
 * file, so a member of the ApplySet); once another team uses the namespace,
 * the agent is switched to a file without it. Pruning would then delete the
 * Namespace, and everything in it; orphaning it from the ApplySet first (the
 * recipe's step) keeps it, through the switch, an upgrade and the uninstall.
 */
export async function switchOwnership(ownedFile: string, sharedFile: string, node: Json, o: Options, created: Created): Promise<void> {
  const owned = readManifest(ownedFile);
  const shared = readManifest(sharedFile);
  const namespace = singleNamespace(owned, ownedFile);
  if (!owned.some((x) => x.kind === 'Namespace' && x.metadata.name === namespace) || shared.some((x) => x.kind === 'Namespace')) {
    throw new StepFailed(`--switch: ${short(ownedFile)} must hold the Namespace ${namespace} and ${short(sharedFile)} no Namespace`);
  }
  if (missingImages(owned, node).length > 0) {
    throw new StepFailed(`--switch: the images ${missingImages(owned, node).join(', ')} are not on the node`);
  }
  const name = applySetName(owned, namespace);
  const env = { KUBECTL_APPLYSET: 'true' };
  const flags = ['--prune', `--applyset=${name}`, '-n', namespace];
  const other = 'another-team-settings';
  step(`switch: install ${short(ownedFile)} (it owns namespace ${namespace}) with the ApplySet recipe; another team puts configmap/${other} into the namespace`);
  const present = [...leftOver([ownedFile, sharedFile]), ...namespacePhase(namespace) !== undefined ? [`namespace/${namespace}`] : []];
  if (present.length > 0) {
    throw new StepFailed(`--switch: ${present.join(', ')} exist before the install (run the lifecycle step before switch)`);
  }
  labelNodeFor(owned, node, created);
  created.createdNamespace(namespace);
  created.applied(ownedFile, owned);
  const ns = kubectl(['create', 'namespace', namespace, '--dry-run=client', '-o', 'yaml']).out;
  evidence(`kubectl create namespace ${namespace} --dry-run=client -o yaml | kubectl apply -f -: ${oneLine(kubectl(['apply', '-f', '-'], { input: ns }).out)}`);
  evidence(`KUBECTL_APPLYSET=true kubectl apply ${flags.join(' ')} -f ${short(ownedFile)}: ${oneLine(apply(ownedFile, undefined, flags, env))}`);
  evidence(`kubectl create configmap ${other} -n ${namespace}: ${oneLine(kubectl(['create', 'configmap', other, '-n', namespace, '--from-literal=owner=another-team']).out)}`);

  step(`switch: without the recipe's orphaning step, pruning to ${short(sharedFile)} would delete the namespace (server dry run)`);
  const dry = apply(sharedFile, undefined, [...flags, '--dry-run=server'], env);
  if (!dry.split('\n').some((l) => l.trim() === `namespace/${namespace} pruned (server dry run)`)) {
    throw new StepFailed(`the server dry run of the switch without orphaning did not prune namespace/${namespace}; the recipe's reason is gone: ${oneLine(dry)}`);
  }
  evidence(`KUBECTL_APPLYSET=true kubectl apply ${flags.join(' ')} --dry-run=server -f ${short(sharedFile)}: ${oneLine(dry)}`);

  step(`switch: the recipe: orphan namespace ${namespace} from the ApplySet, then apply ${short(sharedFile)} with pruning`);
  evidence(`kubectl label namespace ${namespace} applyset.kubernetes.io/part-of-: ${oneLine(kubectl(['label', 'namespace', namespace, 'applyset.kubernetes.io/part-of-']).out)}`);
  created.applied(sharedFile, shared);
  const switched = apply(sharedFile, undefined, flags, env);
  evidence(`KUBECTL_APPLYSET=true kubectl apply ${flags.join(' ')} -f ${short(sharedFile)}: ${oneLine(switched)}`);
  if (/ pruned$/m.test(switched)) {
    throw new StepFailed(`the switch pruned: ${oneLine(switched)}`);
  }
  evidence(othersSurvive(namespace, other, 'after the switch'));
  const upgraded = apply(sharedFile, undefined, flags, env);
  evidence(`upgrade, the same recipe again: ${oneLine(upgraded)}`);
  evidence(othersSurvive(namespace, other, 'after the upgrade'));

  step(`switch: uninstall: kubectl delete -f ${short(sharedFile)} and the ApplySet's parent secret/${name}; the namespace and the other team's ConfigMap stay`);
  evidence(await deleteAndCheck([sharedFile], o));
  evidence(`kubectl delete secret ${name} -n ${namespace}: ${oneLine(kubectl(['delete', 'secret', name, '-n', namespace]).out)}`);
  evidence(othersSurvive(namespace, other, 'after the uninstall'));
}
