import { JsonRpcErrorCode, McpError } from './sdk.js';

/**
 * MCP prompts: ready-made requests a client can offer its user (Claude Code shows them as slash
 * commands): run a reference session with the designer; rebuild a captured area and verify it.
 */

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface PromptDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly PromptArgument[];
  text(args: Record<string, string>): string;
}

export const collectReferencesPrompt: PromptDefinition = {
  name: 'collect_uiux_references',
  title: 'Collect UI/UX references with the designer',
  description:
    "Open the X-IPE toolbar in the designer's tab, follow what they pick and save it as reference data into an idea folder.",
  arguments: [
    {
      name: 'idea_folder',
      description: 'Idea folder to save into (see the xipe://ideas resource)',
      required: false,
    },
    {
      name: 'url_contains',
      description: 'Which tab: text its URL contains (default: the active tab)',
      required: false,
    },
  ],
  text(args) {
    const idea = args.idea_folder
      ? `the idea folder "${args.idea_folder}"`
      : 'an idea folder (read xipe://ideas, ask me which)';
    const tab = args.url_contains ? `the tab whose URL contains "${args.url_contains}"` : 'my active tab';
    return [
      `Collect UI/UX references with me from ${tab} into ${idea}, using the x-ipe-app-and-agent-interaction tools:`,
      '1. list_tabs, then inject_toolbar on that tab.',
      '2. Call wait_for_captures again and again; tell me briefly what I picked (elements, areas, colours, notes).',
      '3. When I say I am done (or save in the toolbar), capture_screenshot what needs a file and call save_uiux_reference with the picks, referencing screenshots by path.',
      'If a call fails, follow its message; bridge_status says what is not connected.',
    ].join('\n');
  },
};

export const rebuildAndVerifyPrompt: PromptDefinition = {
  name: 'rebuild_and_verify',
  title: 'Rebuild a captured area and verify it',
  description:
    'Rebuild a deep-captured area as HTML/CSS, then compare it with the reference and fix the differences until the scores hold.',
  arguments: [
    { name: 'idea_folder', description: 'Idea folder holding the captured area', required: true },
    { name: 'area_id', description: 'The captured area (area-N); default area-1', required: false },
    { name: 'min_score', description: 'Pixel score to reach (default 0.95)', required: false },
  ],
  text(args) {
    const area = args.area_id || 'area-1';
    const min = args.min_score || '0.95';
    const refs = `x-ipe-docs/ideas/${args.idea_folder}/uiux-references`;
    return [
      `Rebuild ${area} of the idea "${args.idea_folder}" and verify it, using the x-ipe-app-and-agent-interaction tools:`,
      `1. Read ${refs}/page-element-references/summarized-uiux-reference.md and referenced-elements.json (${area}); use the fonts and images under resources/.`,
      "2. Write the rebuild as an HTML file inside the workspace, the area at the page's top-left (or note the selector of the element holding it).",
      `3. Call compare_with_reference {idea_folder, area_id: "${area}", file_path} (or url for a local dev server).`,
      `4. Fix the differences it names (report.json lists all of them), then compare again; stop when scores.pixel >= ${min} and block_match >= ${min}, or when a change no longer improves them.`,
      'Never paste the screenshots into the conversation: the scores and differences are the feedback.',
    ].join('\n');
  },
};

export const PROMPTS: readonly PromptDefinition[] = [collectReferencesPrompt, rebuildAndVerifyPrompt];

export function listPrompts(prompts: readonly PromptDefinition[]) {
  return {
    prompts: prompts.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: [...p.arguments],
    })),
  };
}

export function getPrompt(prompts: readonly PromptDefinition[], name: unknown, args: unknown) {
  const invalid = (message: string) => new McpError(JsonRpcErrorCode.InvalidParams, message);
  const prompt = prompts.find((p) => p.name === name);
  if (prompt === undefined) {
    throw invalid(`Unknown prompt: ${String(name)}. Prompts: ${prompts.map((p) => p.name).join(', ')}.`);
  }
  const given: Record<string, string> = {};
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw invalid('prompts/get params.arguments must be an object of strings.');
  }
  for (const [key, value] of Object.entries(args ?? {})) {
    if (!prompt.arguments.some((a) => a.name === key))
      throw invalid(`Unknown argument ${key} for prompt ${prompt.name}.`);
    if (typeof value !== 'string')
      throw invalid(`Argument ${key} of prompt ${prompt.name} must be a string.`);
    given[key] = value;
  }
  for (const a of prompt.arguments) {
    if (a.required && given[a.name] === undefined)
      throw invalid(`Prompt ${prompt.name} needs the argument ${a.name}.`);
  }
  return {
    description: prompt.description,
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.text(given) } }],
  };
}
