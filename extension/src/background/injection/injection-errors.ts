import { XipeError } from '#shared/index.js';
import type { PageError, PageOutcome } from './page-runtime.js';

/** The page's outcome as the agent's answer: its value, or SCRIPT_ERROR saying what was thrown and where. */
export function fromOutcome(outcome: PageOutcome): unknown {
  if (outcome.status === 'ok') return outcome.value;
  if (outcome.status === 'error') throw scriptError(outcome.kind, outcome.error);
  throw new XipeError('INTERNAL_ERROR', `unexpected outcome: ${outcome.message}`);
}

export function scriptError(kind: 'throw' | 'rejection' | 'syntax', error: PageError): XipeError {
  const where = error.line !== undefined ? ` (line ${error.line}, column ${error.column ?? 0})` : '';
  const what = kind === 'rejection' ? 'The promise the script returned was rejected: ' : '';
  const label = error.name === 'Thrown value' ? 'Uncaught' : error.name;
  return new XipeError('SCRIPT_ERROR', `${what}${label}: ${error.message}${where}`, {
    kind,
    name: error.name,
    exception_message: error.message,
    ...(error.line !== undefined ? { line: error.line, column: error.column } : {}),
    ...(error.stack !== undefined ? { stack: error.stack } : {}),
  });
}

/** Chrome's API errors are plain strings; turn the ones we know into instructions. */
export function mapApiError(err: unknown, tabId: number): XipeError {
  if (err instanceof XipeError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/No tab with id/i.test(message)) {
    return new XipeError(
      'TAB_NOT_FOUND',
      `Tab ${tabId} no longer exists. Call list_tabs for the open tabs.`,
      {
        tab_id: tabId,
      },
    );
  }
  if (/Cannot access|cannot be scripted|Missing host permission|permission to access/i.test(message)) {
    return new XipeError('INJECTION_BLOCKED', `The browser does not allow scripting this page: ${message}`, {
      tab_id: tabId,
    });
  }
  if (/Frame with ID \d+ (was removed|is showing error page)|navigat|closed/i.test(message)) {
    return new XipeError(
      'SCRIPT_ERROR',
      `The page navigated, showed an error or closed while the script ran: ${message}`,
      { tab_id: tabId },
    );
  }
  return new XipeError('INTERNAL_ERROR', `Injection failed: ${message}`, { tab_id: tabId });
}
