import {
  AjvJsonSchemaValidator,
  type JsonSchemaType,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
} from './sdk.js';

/**
 * The SDK's server builds an Ajv instance (with every format) in its constructor, only to check
 * elicitation answers — which this server never asks for. Building it on first use keeps that
 * memory out of every idle server while the behaviour stays the SDK's own.
 */
export class LazyJsonSchemaValidator implements jsonSchemaValidator {
  #validator: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.#validator ??= new AjvJsonSchemaValidator();
    return this.#validator.getValidator<T>(schema);
  }
}
