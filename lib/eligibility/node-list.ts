/**
 * Reading `kubectl get nodes -o json` (a List of Node) or `kubectl get node
 * NAME -o json` (one Node), with a one-line error for anything else.
 */
import type { KubeNode } from './evaluate';

/** Bad input: the message is one line, for the user, without a stack trace. */
export class NodeListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeListError';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (isObject(value)) {
    return typeof value.kind === 'string' ? `kind ${JSON.stringify(value.kind)}` : 'an object without a kind';
  }
  return Array.isArray(value) ? 'an array' : `a ${value === null ? 'null' : typeof value}`;
}

function checkNode(value: unknown, where: string): KubeNode {
  if (!isObject(value) || value.kind !== 'Node') {
    throw new NodeListError(`${where} is not a Node but ${describe(value)}`);
  }
  const name = isObject(value.metadata) ? value.metadata.name : undefined;
  if (typeof name !== 'string' || name === '') {
    throw new NodeListError(`${where} has no metadata.name`);
  }
  return value as KubeNode;
}

/**
 * The nodes in a `kubectl get nodes -o json` or `kubectl get node NAME -o json` text.
 * @param text the JSON
 * @param source what to call the input in errors, e.g. the file name
 * @throws NodeListError when the text is not JSON, not a Node or a List of Node, an empty list, or a node has no name
 */
export function readNodeList(text: string, source: string): KubeNode[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new NodeListError(`${source}: not JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (isObject(data) && data.kind === 'Node') {
    return [checkNode(data, source)];
  }
  if (!isObject(data) || (data.kind !== 'List' && data.kind !== 'NodeList') || !Array.isArray(data.items)) {
    throw new NodeListError(`${source}: expected a Node or a List of Node (kubectl get nodes -o json) but got ${describe(data)}`);
  }
  if (data.items.length === 0) {
    throw new NodeListError(`${source}: the list has no nodes`);
  }
  return data.items.map((item, i) => checkNode(item, `${source}: items[${i}]`));
}
