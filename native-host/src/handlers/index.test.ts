import { describe, expect, it } from 'vitest';
import { COMMANDS } from '#shared/commands/index.js';
import { HOST_HANDLERS } from './index.js';

// Convention as a test: every command the host answers has exactly one handler, and the host has
// no handler for a command it does not own. Reads both registries, so it covers handlers added later.
describe('HOST_HANDLERS', () => {
  const hostCommands = Object.entries(COMMANDS)
    .filter(([, spec]) => spec.handledBy === 'host')
    .map(([name]) => name)
    .sort();

  it('has exactly one handler per host command, and nothing else', () => {
    expect(Object.keys(HOST_HANDLERS).sort()).toEqual(hostCommands);
  });

  it.each(hostCommands)('%s is a function', (name) => {
    expect(typeof HOST_HANDLERS[name]).toBe('function');
  });

  it('does not answer commands the extension owns', () => {
    for (const [name, spec] of Object.entries(COMMANDS)) {
      if (spec.handledBy === 'extension') expect(Object.hasOwn(HOST_HANDLERS, name)).toBe(false);
    }
  });
});
