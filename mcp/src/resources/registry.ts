import { XipeError } from '#shared/errors.js';
import { AGENT_GUIDE_MARKDOWN } from './guide.js';
import { hasVerifyReports, listVerifyReports } from './verify-reports.js';
import {
  ideasDir,
  listWorkspaceIdeas,
  readReferenceData,
  readReferencedElements,
  type WorkspaceIdea,
} from './workspace-ideas.js';

/**
 * MCP resources as data objects, like tools: `server.ts` registers them (the only SDK caller);
 * tests call `read`/`list` directly. Everything is read from the workspace, read-only.
 */

export interface ResourceContext {
  /** Absolute workspace root the server was started for. */
  workspace: string;
}

export interface ResourceDefinition {
  readonly name: string;
  readonly uri: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
  read(ctx: ResourceContext): Promise<string>;
}

export interface ResourceTemplateDefinition {
  readonly name: string;
  /** RFC 6570 template; variables arrive percent-decoded in `read`. */
  readonly uriTemplate: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
  /** The concrete resources of this template that exist now (shown in resources/list). */
  list(ctx: ResourceContext): Promise<Array<{ uri: string; name: string; title: string }>>;
  read(ctx: ResourceContext, variables: Record<string, string>): Promise<string>;
}

export const IDEAS_URI = 'xipe://ideas';
export const GUIDE_URI = 'xipe://guide';

export const referenceDataUri = (idea: string): string =>
  `${IDEAS_URI}/${encodeURIComponent(idea)}/reference-data`;

export const ideasResource: ResourceDefinition = {
  name: 'ideas',
  uri: IDEAS_URI,
  title: 'Idea folders of the workspace',
  description:
    'The idea folders under x-ipe-docs/ideas/ of this workspace (save targets for save_uiux_reference): name, ' +
    'has_references, session_count, and the URI of the merged reference data when there is one.',
  mimeType: 'application/json',
  async read(ctx) {
    const ideas = await listWorkspaceIdeas(ctx.workspace);
    return JSON.stringify({
      workspace: ctx.workspace,
      ideas_dir: ideasDir(ctx.workspace),
      ideas: ideas.map((idea) => ({
        name: idea.name,
        has_references: idea.has_references,
        session_count: idea.session_count,
        reference_data: idea.has_reference_data ? referenceDataUri(idea.name) : null,
        referenced_elements: idea.has_referenced_elements ? referencedElementsUri(idea.name) : null,
      })),
    });
  },
};

export const guideResource: ResourceDefinition = {
  name: 'guide',
  uri: GUIDE_URI,
  title: 'How to use the X-IPE UI/UX tools',
  description:
    'Short usage guide for agents: the toolbar workflow (inject_toolbar → wait_for_captures → ' +
    'capture_screenshot → save_uiux_reference), the other tools, and what to do when a call fails.',
  mimeType: 'text/markdown',
  async read() {
    return AGENT_GUIDE_MARKDOWN;
  },
};

export const referencedElementsUri = (idea: string): string =>
  `${IDEAS_URI}/${encodeURIComponent(idea)}/referenced-elements`;

/** The percent-decoded idea of a template URI, or a VALIDATION_ERROR naming the bad text. */
function decodeIdea(variables: Record<string, string>): string {
  const raw = variables.idea ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new XipeError(
      'VALIDATION_ERROR',
      `Invalid idea folder in the URI: '${raw}' is not percent-encoded UTF-8.`,
      {
        field: 'idea',
      },
    );
  }
}

/** A template for one file of each idea folder that has it, listed only where it exists. */
function ideaFileTemplate(file: {
  name: string;
  uri: (idea: string) => string;
  title: string;
  description: string;
  titleOf: (idea: string) => string;
  exists: (idea: WorkspaceIdea) => boolean;
  read: (workspace: string, idea: string) => Promise<string>;
}): ResourceTemplateDefinition {
  return {
    name: file.name,
    uriTemplate: `${IDEAS_URI}/{idea}/${file.name}`,
    title: file.title,
    description: file.description,
    mimeType: 'application/json',
    async list(ctx) {
      const ideas = await listWorkspaceIdeas(ctx.workspace);
      return ideas.filter(file.exists).map((idea) => ({
        uri: file.uri(idea.name),
        name: `${file.name}: ${idea.name}`,
        title: file.titleOf(idea.name),
      }));
    },
    async read(ctx, variables) {
      return file.read(ctx.workspace, decodeIdea(variables));
    },
  };
}

export const referencedElementsTemplate = ideaFileTemplate({
  name: 'referenced-elements',
  uri: referencedElementsUri,
  title: "An idea's deep captures",
  description:
    'page-element-references/referenced-elements.json (3.0) of one idea folder: every area captured with capture_area, ' +
    "its elements with their styles, states and files, and the paths of each area's offline clone. `idea` is the folder name, percent-encoded.",
  titleOf: (idea) => `Deep captures of ${idea}`,
  exists: (idea) => idea.has_referenced_elements,
  read: readReferencedElements,
});

export const referenceDataTemplate = ideaFileTemplate({
  name: 'reference-data',
  uri: referenceDataUri,
  title: "An idea's merged reference data",
  description:
    'The merged reference-data.json of one idea folder (colours, elements, design tokens, sessions), rebuilt on every save. `idea` is the folder name, percent-encoded.',
  titleOf: (idea) => `Reference data of ${idea}`,
  exists: (idea) => idea.has_reference_data,
  read: readReferenceData,
});

export const verifyReportsUri = (idea: string): string =>
  `${IDEAS_URI}/${encodeURIComponent(idea)}/verify-reports`;

export const verifyReportsTemplate: ResourceTemplateDefinition = {
  name: 'verify-reports',
  uriTemplate: `${IDEAS_URI}/{idea}/verify-reports`,
  title: "An idea's comparisons",
  description:
    'The reports compare_with_reference wrote for one idea folder (uiux-references/verify/), newest last: scores, ' +
    'the number of differences and the first five, and the paths of report.json, report.md, diff.png, candidate.png.',
  mimeType: 'application/json',
  async list(ctx) {
    const ideas = await listWorkspaceIdeas(ctx.workspace);
    const withReports = await Promise.all(ideas.map((i) => hasVerifyReports(ctx.workspace, i.name)));
    return ideas
      .filter((_, i) => withReports[i])
      .map((idea) => ({
        uri: verifyReportsUri(idea.name),
        name: `verify-reports: ${idea.name}`,
        title: `Comparisons of ${idea.name}`,
      }));
  },
  async read(ctx, variables) {
    const idea = decodeIdea(variables);
    return JSON.stringify({ idea_folder: idea, reports: await listVerifyReports(ctx.workspace, idea) });
  },
};

export const RESOURCES: readonly ResourceDefinition[] = [ideasResource, guideResource];
export const RESOURCE_TEMPLATES: readonly ResourceTemplateDefinition[] = [
  referenceDataTemplate,
  referencedElementsTemplate,
  verifyReportsTemplate,
];
