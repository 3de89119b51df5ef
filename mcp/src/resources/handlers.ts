import { type ErrorCode, toErrorPayload, XipeError } from '#shared/errors.js';
import type { Logger } from '#shared/node/logger.js';
import { JsonRpcErrorCode, McpError, type ReadResourceResult, UriTemplate } from '../sdk.js';
import type { ResourceContext, ResourceDefinition, ResourceTemplateDefinition } from './registry.js';

/**
 * resources/list, resources/templates/list and resources/read over the resource registry. A
 * failed read is a JSON-RPC error whose message says what to do and whose `data` is our
 * `{error, message, details}` object, like a tool's; an unknown URI is -32002 (MCP's "resource
 * not found").
 */

export const RESOURCE_NOT_FOUND = -32002;

const READ_ERROR_CODES: Partial<Record<ErrorCode, number>> = {
  IDEA_NOT_FOUND: RESOURCE_NOT_FOUND,
  FILE_NOT_FOUND: RESOURCE_NOT_FOUND,
  VALIDATION_ERROR: JsonRpcErrorCode.InvalidParams,
};

export interface ResourceSet {
  resources: readonly ResourceDefinition[];
  templates: readonly ResourceTemplateDefinition[];
}

export async function listResources(set: ResourceSet, ctx: ResourceContext) {
  const fixed = set.resources.map((r) => ({
    uri: r.uri,
    name: r.name,
    title: r.title,
    description: r.description,
    mimeType: r.mimeType,
  }));
  const listed = await Promise.all(
    set.templates.map(async (t) =>
      (await t.list(ctx)).map((r) => ({ ...r, description: t.description, mimeType: t.mimeType })),
    ),
  );
  return { resources: [...fixed, ...listed.flat()] };
}

export function listResourceTemplates(set: ResourceSet) {
  return {
    resourceTemplates: set.templates.map((t) => ({
      uriTemplate: t.uriTemplate,
      name: t.name,
      title: t.title,
      description: t.description,
      mimeType: t.mimeType,
    })),
  };
}

const compiled = new WeakMap<ResourceTemplateDefinition, UriTemplate>();

/** The resource a URI names, as a read function and its MIME type; -32002 when there is none. */
function resolve(set: ResourceSet, uri: string, ctx: ResourceContext) {
  const fixed = set.resources.find((r) => r.uri === uri);
  if (fixed !== undefined) return { mimeType: fixed.mimeType, read: () => fixed.read(ctx) };
  for (const template of set.templates) {
    let matcher = compiled.get(template);
    if (matcher === undefined) {
      matcher = new UriTemplate(template.uriTemplate);
      compiled.set(template, matcher);
    }
    const variables = matcher.match(uri);
    if (variables === null) continue;
    const flat: Record<string, string> = {};
    for (const [key, value] of Object.entries(variables))
      flat[key] = Array.isArray(value) ? value.join(',') : value;
    return { mimeType: template.mimeType, read: () => template.read(ctx, flat) };
  }
  const known = [...set.resources.map((r) => r.uri), ...set.templates.map((t) => t.uriTemplate)];
  throw new McpError(
    RESOURCE_NOT_FOUND,
    `Resource not found: ${uri}. Known resources: ${known.join(', ')}.`,
    {
      uri,
    },
  );
}

export async function readResource(
  set: ResourceSet,
  uri: string,
  ctx: ResourceContext,
  logger: Logger,
): Promise<ReadResourceResult> {
  const target = resolve(set, uri, ctx);
  try {
    const text = await target.read();
    logger.debug('resource read', { uri, bytes: Buffer.byteLength(text) });
    return { contents: [{ uri, mimeType: target.mimeType, text }] };
  } catch (err) {
    const payload = toErrorPayload(err);
    if (!(err instanceof XipeError)) {
      logger.error('resource read failed unexpectedly', { uri, error: String(err) });
    } else {
      logger.info('resource read failed', { uri, error: payload.code });
    }
    throw new McpError(READ_ERROR_CODES[payload.code] ?? JsonRpcErrorCode.InternalError, payload.message, {
      error: payload.code,
      message: payload.message,
      details: payload.details ?? {},
      uri,
    });
  }
}
