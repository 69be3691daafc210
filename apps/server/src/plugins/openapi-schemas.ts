// Two repairs of what zod's OpenAPI 3.0 output leaves behind, so that the published document
// validates (swagger-parser) and generates clients (openapi-typescript).

type TNode = Record<string, unknown>;

/**
 * OpenAPI 3.0 has no null type: zod itself writes null as this one-value enum, which is what a
 * nullable reference needs too, since `nullable` means nothing without a `type` beside it.
 */
const NULL_ONLY = { type: 'string', nullable: true, enum: [null] };

function isNode(value: unknown): value is TNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A copy of `value` in which every schema marked `nullable` without a `type` (zod's
 * `{ nullable: true, allOf: [{ $ref }] }` for a nullable registered schema such as `Text`)
 * becomes `{ anyOf: [the schema, NULL_ONLY] }`.
 */
export function withTypedNullables<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withTypedNullables) as T;
  if (!isNode(value)) return value;
  const copy: TNode = {};
  for (const [key, child] of Object.entries(value)) copy[key] = withTypedNullables(child);
  if (copy.nullable !== true || 'type' in copy) return copy as T;
  const { nullable: _nullable, ...rest } = copy;
  const keys = Object.keys(rest);
  const single = keys.length === 1 && Array.isArray(rest.allOf) && rest.allOf.length === 1;
  return { anyOf: [single ? (rest.allOf as unknown[])[0] : rest, NULL_ONLY] } as T;
}

const REF_PREFIX = '#/components/schemas/';

function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const child of value) collectRefs(child, into);
    return;
  }
  if (!isNode(value)) return;
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string' && child.startsWith(REF_PREFIX)) {
      into.add(child.slice(REF_PREFIX.length));
    } else collectRefs(child, into);
  }
}

/**
 * The component schemas the paths reach, directly or through other components. zod's registry
 * yields an input and an output variant of every registered schema (`TextInput`, `Text`) whether
 * a route uses it or not; an unused component is noise to a client generator.
 */
export function reachableSchemas<T>(paths: unknown, schemas: Record<string, T>): Record<string, T> {
  const reached = new Set<string>();
  collectRefs(paths, reached);
  const kept: Record<string, T> = {};
  // A Set's iteration also visits what is added meanwhile: the components' own references.
  for (const name of reached) {
    const schema = schemas[name];
    if (schema === undefined) continue;
    kept[name] = schema;
    collectRefs(schema, reached);
  }
  return kept;
}
