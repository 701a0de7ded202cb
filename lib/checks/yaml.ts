/**
 * Manifest YAML as kubectl reads it: YAML 1.1 (an unquoted yes, no, on, off,
 * y or n is a boolean), duplicate keys refused, merge keys only with maps.
 */
import { parseAllDocuments } from 'yaml';
import { Finding, KubeObject } from './finding';
import { RULES, Severity } from './rules';

/** The objects of a multi-document YAML text, and findings for the documents that are not YAML. */
export function parseYaml(text: string, file?: string): { objects: KubeObject[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const objects: KubeObject[] = [];
  parseAllDocuments(text, { version: '1.1' }).forEach((doc, i) => {
    const syntax = [...doc.errors, ...doc.warnings];
    if (doc.errors.length > 0) {
      findings.push(...syntax.map((e) => ({
        rule: RULES.yamlSyntax, severity: Severity.ERROR, file, object: `document ${i + 1}`,
        path: `line ${e.linePos?.[0].line ?? '?'}`, message: e.message.split('\n')[0],
      })));
      return;
    }
    let obj: unknown;
    try {
      obj = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      findings.push({ rule: RULES.yamlSyntax, severity: Severity.ERROR, file, object: `document ${i + 1}`, path: '(document)', message: (e as Error).message.split('\n')[0] });
      return;
    }
    if (obj !== null && obj !== undefined) {
      objects.push(obj as KubeObject);
    }
  });
  return { objects, findings };
}
