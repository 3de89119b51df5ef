import { describe, expect, it } from 'vitest';
import { XipeError } from '#shared/errors.js';
import { errorResult, successResult, toToolError } from './tool-result.js';

describe('tool results', () => {
  it('puts the success object in the first text item and in structuredContent', () => {
    const result = successResult({ success: true, returnValue: 42 });
    expect(result.isError).toBeUndefined();
    // Every success carries status "success", first (DESIGN §5).
    expect(result.content).toEqual([
      { type: 'text', text: '{"status":"success","success":true,"returnValue":42}' },
    ]);
    expect(result.structuredContent).toEqual({ status: 'success', success: true, returnValue: 42 });
  });

  it('maps a XipeError to {error, message, details, tool_name}', () => {
    const result = errorResult(
      new XipeError('TAB_NOT_FOUND', 'No tab 7. Call list_tabs.', { tab_id: 7 }),
      'inject_script',
    );
    const expected = {
      error: 'TAB_NOT_FOUND',
      message: 'No tab 7. Call list_tabs.',
      details: { tab_id: 7 },
      tool_name: 'inject_script',
    };
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(expected);
    expect(result.structuredContent).toEqual(expected);
  });

  it('always has details, even when the error carries none', () => {
    expect(toToolError(new XipeError('TIMEOUT', 'slow'), 't')).toEqual({
      error: 'TIMEOUT',
      message: 'slow',
      details: {},
      tool_name: 't',
    });
  });

  it('keeps a relayed error payload (plain object) as is', () => {
    expect(toToolError({ code: 'SCRIPT_ERROR', message: 'boom at 1:2', details: { line: 1 } }, 't')).toEqual({
      error: 'SCRIPT_ERROR',
      message: 'boom at 1:2',
      details: { line: 1 },
      tool_name: 't',
    });
  });

  it.each([new TypeError('x is undefined'), 'a string', 12, null, { code: 'NOT_A_CODE', message: 'm' }])(
    'turns anything else (%s) into INTERNAL_ERROR with an instruction',
    (thrown) => {
      const obj = toToolError(thrown, 'list_tabs');
      expect(obj.error).toBe('INTERNAL_ERROR');
      expect(obj.tool_name).toBe('list_tabs');
      expect(obj.message).toMatch(/Internal error in list_tabs: .*retry/);
      expect(obj.details).toEqual({});
    },
  );
});
