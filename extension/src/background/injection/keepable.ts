import { type AnyNode, childNodes } from './ast.js';

/**
 * Whether a script (acorn's Program) runs the same as the body of a function called with no
 * receiver, so the page can keep it as one and a repeated call need not send or compile its text
 * again (`keptCall` in run-injection). The wrapper runs the code inside a `try` block either way,
 * so its `let`, `const` and `class` are block-scoped in both forms; what differs is only:
 *
 * - `var` declarations and function declarations (also in blocks, Annex B) outside every
 *   function: a script makes them globals, a function body locals;
 * - `arguments`, which a function body has and a script does not, also inside arrow functions;
 * - direct `eval`, whose `var`s land in the caller's scope (and which may name `arguments`).
 *
 * Any of those keeps the script in its script form. With top-level await the code already is the
 * body of an async arrow function (instrumentCompletion), so declarations are local in both
 * forms; `arguments` and `eval` still count. Any identifier so named counts (`o.arguments` too):
 * cheap, and only ever sends a script the old way.
 */
export function keepable(program: AnyNode, topLevelAwait: boolean): boolean {
  let ok = true;
  const visit = (node: AnyNode, ownScope: boolean): void => {
    if (!ok) return;
    switch (node.type) {
      case 'FunctionExpression':
        return; // its own `arguments`, `var`s and scope: the same in both forms
      case 'FunctionDeclaration':
        if (!ownScope) ok = false;
        return;
      case 'VariableDeclaration':
        if (node.kind === 'var' && !ownScope) ok = false;
        break;
      case 'Identifier':
        if (node.name === 'arguments' || node.name === 'eval') ok = false;
        return;
    }
    // An arrow function's or a class static block's `var`s and functions are its own.
    const scoped = ownScope || node.type === 'ArrowFunctionExpression' || node.type === 'StaticBlock';
    for (const child of childNodes(node)) visit(child, scoped);
  };
  visit(program, topLevelAwait);
  return ok;
}
