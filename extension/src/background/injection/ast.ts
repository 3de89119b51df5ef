import type { Node } from 'acorn';

/** An acorn node with its fields reachable by name (acorn's types list only the common ones). */
export type AnyNode = Node & Record<string, unknown>;

export const FUNCTION_NODES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
]);

export function asNode(value: unknown): AnyNode | null {
  return value !== null && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string'
    ? (value as AnyNode)
    : null;
}

export function nodeList(value: unknown): AnyNode[] {
  return Array.isArray(value) ? value.flatMap((item) => asNode(item) ?? []) : [];
}

/** The node's child nodes, in source order. */
export function childNodes(node: AnyNode): AnyNode[] {
  const out: AnyNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    if (Array.isArray(value)) {
      // Not out.push(...list): a call with 200 000 arguments would overflow the stack.
      for (const child of nodeList(value)) out.push(child);
    } else {
      const child = asNode(value);
      if (child !== null) out.push(child);
    }
  }
  return out;
}
