import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '#shared/node/config.js';
import { DEFAULT_FIRST_IDEA, setUpProject } from './first-idea.js';

let root: string;
let workspace: string;
let home: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-first-idea-'));
  workspace = path.join(root, 'ws');
  home = path.join(root, 'home');
  fs.mkdirSync(workspace);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const ideas = () => path.join(workspace, 'x-ipe-docs', 'ideas');

describe('init: the first idea folder and the workspace', () => {
  it('creates the idea named by --idea and registers the workspace', async () => {
    const setup = await setUpProject({ workspace, home, idea: '002. Pricing', ask: null });
    expect(setup.created).toBe('002. Pricing');
    expect(fs.statSync(path.join(ideas(), '002. Pricing')).isDirectory()).toBe(true);
    expect(loadConfig(home).workspaces).toEqual([workspace]);
    const again = await setUpProject({ workspace, home, idea: '002. Pricing', ask: null });
    expect(again.created).toBeNull();
    expect(again.lines[0]).toContain('exists already');
  });

  it('offers one on a terminal when there is none (Enter takes the default, n declines)', async () => {
    const questions: string[] = [];
    const answer = (text: string) => async (question: string) => {
      questions.push(question);
      return text;
    };
    expect((await setUpProject({ workspace, home, idea: undefined, ask: answer('n') })).created).toBeNull();
    expect(questions[0]).toContain(ideas());
    expect((await setUpProject({ workspace, home, idea: undefined, ask: answer('') })).created).toBe(
      DEFAULT_FIRST_IDEA,
    );
    // With an idea there, no question.
    await setUpProject({ workspace, home, idea: undefined, ask: answer('x') });
    expect(questions).toHaveLength(2);
  });

  it('without a terminal says how to create one; refuses a name that is not one plain folder', async () => {
    const setup = await setUpProject({ workspace, home, idea: undefined, ask: null });
    expect(setup.lines[0]).toContain('x-ipe-uiux init --idea');
    expect(fs.existsSync(ideas())).toBe(false);
    await expect(setUpProject({ workspace, home, idea: '../x', ask: null })).rejects.toThrow(
      /--idea: expected a single folder name/,
    );
  });
});
