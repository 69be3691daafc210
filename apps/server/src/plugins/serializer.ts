import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as checkingSerializer } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

/**
 * JSON Schema of what a response schema outputs, for fast-json-stringify. zod writes nullable
 * fields as `type: [x, 'null']` and closed objects with `additionalProperties: false`, both of
 * which fast-json-stringify handles natively (no run-time validation on any path).
 */
function outputJsonSchema(schema: ZodType): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
  return json;
}

/**
 * Response bodies are written by a serializer compiled once per route and status from the
 * route's zod schema: only the fields the schema lists, in its order, with no run-time check of
 * the handler's output (zod's would check every field of every row of every list). The schema
 * still types the handlers at compile time, and tests run with `validate` so that an answer
 * which no longer fits its schema fails there first.
 */
export function responseSerializer(
  options: { validate?: boolean } = {},
): FastifySerializerCompiler<ZodType> {
  // Many routes share a schema (every error status is ZApiError): each is compiled once.
  const compiled = new WeakMap<ZodType, (data: unknown) => string>();
  const writerOf = (schema: ZodType) => {
    let write = compiled.get(schema);
    if (!write) {
      write = fastJson(outputJsonSchema(schema));
      compiled.set(schema, write);
    }
    return write;
  };
  return (route) => {
    const write = writerOf(route.schema);
    if (!options.validate) return write;
    const check = checkingSerializer(route);
    return (data) => {
      check(data);
      return write(data);
    };
  };
}
