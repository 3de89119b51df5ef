import {
  applyEdits,
  type Edit,
  type FormattingOptions,
  findNodeAtLocation,
  format,
  modify,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
  type Range,
} from 'jsonc-parser';

/**
 * Reading and editing agents' config files (`.mcp.json`, `opencode.json[c]`, Copilot's
 * `mcp-config.json`), which may hold comments and trailing commas, with Microsoft's jsonc-parser:
 * `modify` computes the edit and `applyEdits` applies it, so comments, key order, formatting and
 * unknown keys outside the edited value survive. Only the inserted text is formatted (jsonc-parser
 * would otherwise re-format the whole line it lands on, rewriting a sibling written on one line).
 */

export class JsoncError extends Error {
  readonly offset: number;
  readonly line: number;
  readonly column: number;

  constructor(message: string, text: string, offset: number) {
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    super(`${message} at line ${line}, column ${column}`);
    this.name = 'JsoncError';
    this.offset = offset;
    this.line = line;
    this.column = column;
  }
}

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };

/** The syntax tree of a JSONC document; JsoncError at the first problem. */
function tree(text: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  const [first] = errors;
  if (first !== undefined) throw new JsoncError(describe(first), text, first.offset);
  if (root === undefined) throw new JsoncError('empty document', text, 0);
  return root;
}

function describe(error: ParseError): string {
  // InvalidSymbol → "invalid symbol", EndOfFileExpected → "end of file expected"…
  return printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/**
 * The value of a node. Keys are defined, never assigned: a `__proto__` key in a config file is a
 * plain key, not a prototype (jsonc-parser's own `getNodeValue` assigns).
 */
function nodeValue(node: Node): unknown {
  if (node.type === 'array') return (node.children ?? []).map(nodeValue);
  if (node.type !== 'object') return node.value;
  const object: Record<string, unknown> = {};
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (key === undefined || value === undefined) continue;
    Object.defineProperty(object, String(key.value), {
      value: nodeValue(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

/** Parses JSON with `//` and block comments and trailing commas. Throws JsoncError with a position. */
export function parseJsonc(text: string): unknown {
  return nodeValue(tree(text));
}

/** Deep equality for JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.hasOwn(b, k) &&
        jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

/** The document's own indentation (what its first indented line uses; two spaces when flat). */
function formattingOf(text: string, eol: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return indent.includes('\t')
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: indent.length, eol };
}

/**
 * Sets `path` (object keys) to `value` in a JSONC document and returns the new text. Everything
 * outside the edited value is kept byte for byte. An empty document becomes `{ path: value }`.
 * Throws JsoncError when the text cannot be parsed or a step of the path is not an object.
 */
export function setJsoncProperty(text: string, path: readonly string[], value: unknown): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (text.trim() === '') {
    const nested = path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
    return `${JSON.stringify(nested, null, 2).split('\n').join(eol)}${eol}`;
  }
  const root = tree(text);
  for (let i = 0; i < path.length; i += 1) {
    const node = findNodeAtLocation(root, path.slice(0, i));
    if (node === undefined) break;
    if (node.type !== 'object') {
      throw new JsoncError(`'${path.slice(0, i).join('.')}' is not an object`, text, node.offset);
    }
  }
  const existing = findNodeAtLocation(root, [...path]);
  if (existing !== undefined && jsonEqual(nodeValue(existing), value)) return text;

  const [edit] = modify(text, [...path], value, {});
  if (edit === undefined) return text;
  const placed = placeMember(text, edit, eol);
  const edited = applyEdits(text, placed.edits);
  // Format what was inserted, and nothing around it; into an empty object, the object too (its
  // braces then go on their own lines, as they would have been written).
  const receiving = deepestExisting(root, path);
  const range =
    existing === undefined && receiving.type === 'object' && (receiving.children ?? []).length === 0
      ? { offset: receiving.offset, length: receiving.length + edit.content.length }
      : placed.inserted;
  return applyEdits(edited, format(edited, range, formattingOf(text, eol)));
}

/** The node of the longest prefix of `path` that exists (the object a new member goes into). */
function deepestExisting(root: Node, path: readonly string[]): Node {
  for (let i = path.length; i > 0; i -= 1) {
    const node = findNodeAtLocation(root, path.slice(0, i));
    if (node !== undefined) return node;
  }
  return root;
}

/**
 * jsonc-parser inserts a new member right after the previous one's value, which would put that
 * member's trailing `// comment` after the new one. Then the new member goes after the comment, on
 * its own line, and the comma that separates them stays before the comment. Returns the edits and
 * where the inserted text ends up in the edited document.
 */
function placeMember(text: string, edit: Edit, eol: string): { edits: Edit[]; inserted: Range } {
  const as = { edits: [edit], inserted: { offset: edit.offset, length: edit.content.length } };
  if (edit.length !== 0 || !edit.content.startsWith(',')) return as;
  const lineEnd = text.slice(edit.offset).search(/\r?\n|$/) + edit.offset;
  const tail = /^[ \t]*(,?)[ \t]*\/\//.exec(text.slice(edit.offset, lineEnd));
  if (tail === null) return as;
  const member = `${eol}${edit.content.slice(1)}`;
  if (tail[1] === ',') {
    // `"a": 1, // c` has its comma already (a trailing one): the new member gets one too.
    const content = `${member},`;
    return {
      edits: [{ offset: lineEnd, length: 0, content }],
      inserted: { offset: lineEnd, length: content.length },
    };
  }
  return {
    edits: [
      { offset: edit.offset, length: 0, content: ',' },
      { offset: lineEnd, length: 0, content: member },
    ],
    inserted: { offset: lineEnd + 1, length: member.length },
  };
}
