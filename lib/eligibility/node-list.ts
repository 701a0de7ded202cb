/**
 * Reading what kubectl and the API give for nodes: `kubectl get nodes -o
 * json|yaml` (a List), `kubectl get --raw /api/v1/nodes` (a NodeList whose
 * items have no kind), or one Node; UTF-8 with or without a BOM, or UTF-16
 * (a PowerShell redirect). Anything else, or a node with a field of the wrong
 * type, is a one-line error naming the input, the node and the field.
 */
import { decodeText, InputError } from '../checks/input/files';
import { parseYaml } from '../checks/input/yaml';
import { RULES } from '../checks/rules';
import { isRecord } from '../k8s/syntax';
import type { KubeNode } from './evaluate';
import { printable, shown } from './printable';

/** Bad input: the message is one line, for the user, without a stack trace. */
export class NodeListError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'NodeListError';
  }
}

function describe(value: unknown): string {
  if (isRecord(value)) {
    return typeof value.kind === 'string' ? `kind ${printable(value.kind, true)}` : 'an object without a kind';
  }
  return Array.isArray(value) ? 'an array' : `a ${value === null ? 'null' : typeof value}`;
}

/** The node's fields that eligibility reads, each of the type the API gives, or an error naming it. */
function checkNode(value: unknown, where: string, listItem: boolean): KubeNode {
  if (!isRecord(value) || (value.kind !== 'Node' && !(listItem && value.kind === undefined))) {
    throw new NodeListError(`${where} is not a Node but ${describe(value)}`);
  }
  const metadata = value.metadata;
  const name = isRecord(metadata) ? metadata.name : undefined;
  if (typeof name !== 'string' || name === '') {
    throw new NodeListError(`${where} has no metadata.name`);
  }
  const bad = (field: string, want: string, got: unknown) => new NodeListError(`${where} (node ${printable(name, true)}): ${field} must be ${want} but got ${shown(got)}`);
  const labels = (metadata as Record<string, unknown>).labels;
  if (labels !== undefined && labels !== null) {
    if (!isRecord(labels)) {
      throw bad('metadata.labels', 'an object of strings', labels);
    }
    for (const [key, v] of Object.entries(labels)) {
      if (typeof v !== 'string') {
        throw bad(`metadata.labels[${printable(key, true)}]`, 'a string', v);
      }
    }
  }
  const spec = value.spec;
  if (spec !== undefined && spec !== null) {
    if (!isRecord(spec)) {
      throw bad('spec', 'an object', spec);
    }
    if (spec.unschedulable !== undefined && spec.unschedulable !== null && typeof spec.unschedulable !== 'boolean') {
      throw bad('spec.unschedulable', 'a boolean', spec.unschedulable);
    }
    const taints = spec.taints;
    if (taints !== undefined && taints !== null) {
      if (!Array.isArray(taints)) {
        throw bad('spec.taints', 'an array of taints', taints);
      }
      taints.forEach((t, i) => {
        if (!isRecord(t)) {
          throw bad(`spec.taints[${i}]`, 'a taint { key, value?, effect }', t);
        }
        for (const field of ['key', 'effect'] as const) {
          if (typeof t[field] !== 'string') {
            throw bad(`spec.taints[${i}].${field}`, 'a string', t[field]);
          }
        }
        if (t.value !== undefined && t.value !== null && typeof t.value !== 'string') {
          throw bad(`spec.taints[${i}].value`, 'a string', t.value);
        }
      });
    }
  }
  return value as KubeNode;
}

/**
 * Parses JSON, or YAML (one document), into a value, with the checks' reader
 * (kubectl's: lib/checks/input/yaml.ts); an error names the source. A repeated key
 * is an error here: `kubectl get nodes` never writes one.
 */
function parse(text: string, source: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new NodeListError(`${source}: not JSON (${printable((e as Error).message.split('\n')[0])})`);
    }
  }
  const { documents, findings } = parseYaml(text, source);
  // How kubectl 1.32 would refuse a file it applies is no concern of a node list.
  const problem = findings.find((f) => f.rule !== RULES.jsonReadAsYaml);
  if (problem) {
    const at = problem.line !== undefined ? ` at line ${problem.line}` : '';
    // A repeated key is JSON and YAML both: say what it is.
    if (problem.rule.id === 'yaml-duplicate-key') throw new NodeListError(`${source}: ${printable(problem.message)}${at}`);
    throw new NodeListError(`${source}: ${trimmed.startsWith('{') ? 'not JSON' : 'neither JSON nor YAML'} (${printable(problem.message)}${at})`);
  }
  if (documents.length !== 1) {
    throw new NodeListError(`${source}: expected one document (kubectl get nodes -o json or -o yaml) but got ${documents.length}`);
  }
  return documents[0].value;
}

/**
 * The nodes in `kubectl get nodes -o json` or `-o yaml`, `kubectl get node
 * NAME -o json`, or `kubectl get --raw /api/v1/nodes` output.
 * @param input the text, or its bytes (UTF-8, UTF-8 with a BOM, UTF-16)
 * @param source what to call the input in errors, e.g. the file name
 * @throws NodeListError when the input is not a Node or a list of nodes, the list is empty, or a node lacks a name or has a field of the wrong type
 */
export function readNodeList(input: string | Uint8Array, source: string): KubeNode[] {
  const data = parse(decodeText(input), source);
  if (isRecord(data) && data.kind === 'Node') {
    return [checkNode(data, source, false)];
  }
  if (!isRecord(data) || (data.kind !== 'List' && data.kind !== 'NodeList') || !Array.isArray(data.items)) {
    throw new NodeListError(`${source}: expected a Node or a List of Node (kubectl get nodes -o json) but got ${describe(data)}`);
  }
  if (data.items.length === 0) {
    throw new NodeListError(`${source}: the list has no nodes`);
  }
  return data.items.map((item, i) => checkNode(item, `${source}: items[${i}]`, true));
}
