/**
 * A small JSON-with-comments reader and editor for agents' config files (`.mcp.json`,
 * `opencode.json[c]`, Copilot's `mcp-config.json`). Edits are text splices at parsed offsets, so
 * comments, key order, formatting and unknown keys survive; only the value being set is rewritten.
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

interface Property {
  key: string;
  keyStart: number;
  value: Node;
}

type Node =
  | { kind: 'object'; start: number; end: number; props: Property[]; value: Record<string, unknown> }
  | { kind: 'array'; start: number; end: number; value: unknown[] }
  | { kind: 'scalar'; start: number; end: number; value: unknown };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings must not hold raw control characters
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

class Parser {
  private pos = 0;
  constructor(private readonly text: string) {}

  parseDocument(): Node {
    if (this.text.charCodeAt(0) === 0xfeff) this.pos = 1;
    this.skip();
    const node = this.parseValue();
    this.skip();
    if (this.pos < this.text.length) this.fail('unexpected content after the end of the document');
    return node;
  }

  private fail(message: string): never {
    throw new JsoncError(message, this.text, this.pos);
  }

  /** Skips whitespace and both comment styles. */
  private skip(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
        this.pos += 1;
      } else if (c === '/' && t[this.pos + 1] === '/') {
        const nl = t.indexOf('\n', this.pos);
        this.pos = nl === -1 ? t.length : nl;
      } else if (c === '/' && t[this.pos + 1] === '*') {
        const close = t.indexOf('*/', this.pos + 2);
        if (close === -1) this.fail('unterminated block comment');
        this.pos = close + 2;
      } else {
        return;
      }
    }
  }

  private parseValue(): Node {
    const t = this.text;
    const start = this.pos;
    const c = t[start];
    if (c === '{') return this.parseObject();
    if (c === '[') return this.parseArray();
    if (c === '"') {
      const value = this.parseString();
      return { kind: 'scalar', start, end: this.pos, value };
    }
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (t.startsWith(word, start)) {
        this.pos += word.length;
        return { kind: 'scalar', start, end: this.pos, value };
      }
    }
    NUMBER.lastIndex = start;
    const m = NUMBER.exec(t);
    if (m === null) this.fail(c === undefined ? 'unexpected end of input' : `unexpected character '${c}'`);
    this.pos += m[0].length;
    return { kind: 'scalar', start, end: this.pos, value: Number(m[0]) };
  }

  private parseString(): string {
    STRING.lastIndex = this.pos;
    const m = STRING.exec(this.text);
    if (m === null) this.fail('invalid string');
    this.pos += m[0].length;
    return JSON.parse(m[0]) as string;
  }

  private parseObject(): Node {
    const start = this.pos;
    this.pos += 1;
    const props: Property[] = [];
    const value: Record<string, unknown> = {};
    for (;;) {
      this.skip();
      if (this.text[this.pos] === '}') break;
      if (this.text[this.pos] !== '"') this.fail('expected a property name in double quotes');
      const keyStart = this.pos;
      const key = this.parseString();
      this.skip();
      if (this.text[this.pos] !== ':') this.fail("expected ':'");
      this.pos += 1;
      this.skip();
      const node = this.parseValue();
      props.push({ key, keyStart, value: node });
      Object.defineProperty(value, key, {
        value: node.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skip();
      if (this.text[this.pos] === ',') {
        this.pos += 1;
        continue;
      }
      if (this.text[this.pos] !== '}') this.fail("expected ',' or '}'");
      break;
    }
    this.pos += 1;
    return { kind: 'object', start, end: this.pos, props, value };
  }

  private parseArray(): Node {
    const start = this.pos;
    this.pos += 1;
    const value: unknown[] = [];
    for (;;) {
      this.skip();
      if (this.text[this.pos] === ']') break;
      value.push(this.parseValue().value);
      this.skip();
      if (this.text[this.pos] === ',') {
        this.pos += 1;
        continue;
      }
      if (this.text[this.pos] !== ']') this.fail("expected ',' or ']'");
      break;
    }
    this.pos += 1;
    return { kind: 'array', start, end: this.pos, value };
  }
}

/** Parses JSON with `//` and block comments and trailing commas. Throws JsoncError with a position. */
export function parseJsonc(text: string): unknown {
  return new Parser(text).parseDocument().value;
}

function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const m = /^[ \t]*/.exec(text.slice(lineStart, offset));
  return m === null ? '' : m[0];
}

function serialize(value: unknown, indent: string, unit: string, eol: string): string {
  return JSON.stringify(value, null, unit).split('\n').join(`${eol}${indent}`);
}

function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
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

/**
 * Sets `path` (object keys) to `value` in a JSONC document and returns the new text. Everything
 * outside the edited value is kept byte for byte. An empty document becomes `{ path: value }`.
 * Throws JsoncError when the text cannot be parsed or a step of the path is not an object.
 */
export function setJsoncProperty(text: string, path: readonly string[], value: unknown): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (text.trim() === '') return `${JSON.stringify(nest(path, value), null, 2).split('\n').join(eol)}${eol}`;
  const root = new Parser(text).parseDocument();
  // Indentation unit: what the first nested property uses, else two spaces.
  const firstProp = root.kind === 'object' ? root.props[0] : undefined;
  const onOwnLine = firstProp !== undefined && text.lastIndexOf('\n', firstProp.keyStart) > root.start;
  const guess = onOwnLine ? lineIndent(text, firstProp.keyStart) : '';
  const unit = guess === '' ? '  ' : guess;

  let node: Node = root;
  for (let i = 0; i < path.length; i += 1) {
    const key = path[i] ?? '';
    if (node.kind !== 'object') {
      throw new JsoncError(`'${path.slice(0, i).join('.')}' is not an object`, text, node.start);
    }
    const prop: Property | undefined = node.props.findLast((p) => p.key === key);
    const rest = path.slice(i + 1);
    if (prop === undefined) return insertProperty(text, node, key, nest(rest, value), unit, eol);
    if (rest.length === 0) {
      if (jsonEqual(prop.value.value, value)) return text;
      const indent = lineIndent(text, prop.keyStart);
      return (
        text.slice(0, prop.value.start) + serialize(value, indent, unit, eol) + text.slice(prop.value.end)
      );
    }
    node = prop.value;
  }
  return text;
}

function insertProperty(
  text: string,
  obj: Extract<Node, { kind: 'object' }>,
  key: string,
  value: unknown,
  unit: string,
  eol: string,
): string {
  const last = obj.props.at(-1);
  if (last === undefined) {
    const base = lineIndent(text, obj.start);
    const indent = base + unit;
    const member = `${JSON.stringify(key)}: ${serialize(value, indent, unit, eol)}`;
    // Keep a comment that sat inside the empty object; drop only blank space.
    const inside = text.slice(obj.start + 1, obj.end - 1);
    const kept = inside.trim() === '' ? '' : `${inside.trim()}${eol}${base}`;
    return `${text.slice(0, obj.start + 1)}${eol}${indent}${member}${eol}${base}${kept}${text.slice(obj.end - 1)}`;
  }
  const multiline = text.lastIndexOf('\n', last.keyStart) > obj.start;
  const indent = multiline ? lineIndent(text, last.keyStart) : '';
  const member = `${JSON.stringify(key)}: ${serialize(value, indent, unit, eol)}`;
  // Look past the last value: an optional trailing comma, then maybe a line comment.
  let pos = last.value.end;
  const skipBlanks = (): void => {
    while (text[pos] === ' ' || text[pos] === '\t') pos += 1;
  };
  skipBlanks();
  const trailingComma = text[pos] === ',';
  const afterComma = trailingComma ? pos + 1 : last.value.end;
  if (trailingComma) pos += 1;
  skipBlanks();
  if (text.startsWith('//', pos)) {
    const nl = text.indexOf('\n', pos);
    pos = nl === -1 ? text.length : nl;
  }
  const atLineEnd = multiline && (text[pos] === '\n' || text[pos] === '\r' || pos === text.length);
  if (atLineEnd) {
    // New member on its own line after the last one (and after its comment), keeping the style.
    const inserted = `${eol}${indent}${member}${trailingComma ? ',' : ''}`;
    const withMember = text.slice(0, pos) + inserted + text.slice(pos);
    return trailingComma
      ? withMember
      : `${withMember.slice(0, last.value.end)},${withMember.slice(last.value.end)}`;
  }
  return trailingComma
    ? `${text.slice(0, afterComma)} ${member},${text.slice(afterComma)}`
    : `${text.slice(0, last.value.end)}, ${member}${text.slice(last.value.end)}`;
}
