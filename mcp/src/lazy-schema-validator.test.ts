import { describe, expect, it } from 'vitest';
import { LazyJsonSchemaValidator } from './lazy-schema-validator.js';

describe('LazyJsonSchemaValidator', () => {
  it('validates like the SDK default once it is first used', () => {
    const validator = new LazyJsonSchemaValidator();
    const check = validator.getValidator<{ name: string }>({
      type: 'object',
      properties: { name: { type: 'string', format: 'email' } },
      required: ['name'],
    });
    expect(check({ name: 'a@example.com' })).toEqual({
      valid: true,
      data: { name: 'a@example.com' },
      errorMessage: undefined,
    });
    const bad = check({ name: 'not an email' });
    expect(bad.valid).toBe(false);
    expect(bad.errorMessage).toMatch(/format/);
  });
});
