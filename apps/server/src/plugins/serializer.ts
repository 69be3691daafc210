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
 * A union of one array and one object (a list route's whole list or its page) is written by the
 * writer of the one the data is: fast-json-stringify would check the data against each branch
 * in turn, every row of a whole list included.
 */
function arrayOrObjectWriter(
  schema: ZodType,
  writerOf: (schema: ZodType) => (data: unknown) => string,
): ((data: unknown) => string) | undefined {
  if (!(schema instanceof z.ZodUnion) || schema.options.length !== 2) return undefined;
  const options = schema.options as readonly ZodType[];
  const array = options.find((option) => option instanceof z.ZodArray);
  const object = options.find((option) => option instanceof z.ZodObject);
  if (!array || !object) return undefined;
  const writeArray = writerOf(array);
  const writeObject = writerOf(object);
  return (data) => (Array.isArray(data) ? writeArray(data) : writeObject(data));
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
  const writerOf = (schema: ZodType): ((data: unknown) => string) => {
    let write = compiled.get(schema);
    if (!write) {
      write = arrayOrObjectWriter(schema, writerOf) ?? fastJson(outputJsonSchema(schema));
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
