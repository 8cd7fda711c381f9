// The yaml format: control characters escaped, and read the same by YAML 1.1 parsers.
import { Document, Scalar, visit } from 'yaml';
import { plainData } from './data.js';
import { escapeJsonControls, hasControls } from './text.js';
import type { Formatter } from './types.js';

// YAML 1.2 (the yaml package's default), and also read the same by YAML 1.1 parsers
// (PyYAML, Ansible): a string a 1.1 parser would take for a boolean, number, date or null
// (`yes`, `on`, `n`, `1_000`, `12:30`, `2024-01-31`) is double-quoted.

let yaml11Patterns: RegExp[] | undefined;

function yaml11Implicit(): RegExp[] {
  if (!yaml11Patterns) {
    const tags = new Document(null, { version: '1.1' }).schema.tags;
    yaml11Patterns = tags.flatMap((tag) =>
      tag.tag !== 'tag:yaml.org,2002:str' && tag.default && 'test' in tag && tag.test instanceof RegExp
        ? [tag.test]
        : [],
    );
  }
  return yaml11Patterns;
}

export function yamlText(value: unknown): string {
  // lineWidth 0: never fold long strings; no anchors/aliases for objects that appear twice.
  const doc = new Document(value, { aliasDuplicateObjects: false });
  const patterns = yaml11Implicit();
  visit(doc, {
    Scalar(_key, node) {
      if (
        typeof node.value === 'string' &&
        (hasControls(node.value) || patterns.some((p) => p.test(node.value as string)))
      ) {
        node.type = Scalar.QUOTE_DOUBLE;
      }
    },
  });
  // A string with control characters is double-quoted, where the library escapes C0 but leaves DEL,
  // C1 and the line separators raw; `\uXXXX` is a YAML escape there too.
  return escapeJsonControls(doc.toString({ lineWidth: 0 }));
}

export const formatYaml: Formatter = (data) => yamlText(plainData(data));
