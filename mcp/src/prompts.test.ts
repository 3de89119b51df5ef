import { describe, expect, it } from 'vitest';
import {
  collectReferencesPrompt,
  getPrompt,
  listPrompts,
  PROMPTS,
  rebuildAndVerifyPrompt,
} from './prompts.js';

describe('prompts', () => {
  it('lists each prompt with a name, a description and its arguments', () => {
    const { prompts } = listPrompts(PROMPTS);
    expect(prompts.map((p) => p.name)).toEqual(['collect_uiux_references', 'rebuild_and_verify']);
    for (const p of prompts) expect(p.description.length).toBeGreaterThan(20);
  });

  it('fills the arguments into one user message naming the tools to call', () => {
    const { messages } = getPrompt(PROMPTS, collectReferencesPrompt.name, {
      idea_folder: '018. Pricing',
      url_contains: 'example.com',
    });
    expect(messages).toHaveLength(1);
    expect(messages[0]?.role).toBe('user');
    expect(messages[0]?.content.text).toMatch(/"018\. Pricing".*\n.*inject_toolbar/s);
    expect(messages[0]?.content.text).toMatch(/URL contains "example\.com"/);
    expect(getPrompt(PROMPTS, collectReferencesPrompt.name, undefined).messages[0]?.content.text).toMatch(
      /xipe:\/\/ideas/,
    );
  });

  it('rebuild_and_verify walks capture → rebuild → compare → fix, and needs the idea', () => {
    const text = getPrompt(PROMPTS, rebuildAndVerifyPrompt.name, {
      idea_folder: '018. Pricing',
      area_id: 'area-2',
    }).messages[0]?.content.text;
    expect(text).toMatch(/"018\. Pricing".*area-2.*compare_with_reference.*Fix the differences/s);
    expect(text).toMatch(/scores\.pixel >= 0\.95/);
    expect(() => getPrompt(PROMPTS, rebuildAndVerifyPrompt.name, {})).toThrow(
      /needs the argument idea_folder/,
    );
  });

  it('refuses an unknown prompt, an unknown argument and a non-string value with -32602', () => {
    for (const [name, args] of [
      ['nope', {}],
      [collectReferencesPrompt.name, { colour: 'red' }],
      [collectReferencesPrompt.name, { idea_folder: 3 }],
      [collectReferencesPrompt.name, ['x']],
    ] as const) {
      expect(() => getPrompt(PROMPTS, name, args)).toThrow(expect.objectContaining({ code: -32602 }));
    }
  });
});
