// The published OpenAPI document is what anyone automating Portico with an API token builds a
// client from: it must pass a standard validator and a client generator, and name and describe
// every operation.
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../test/support/test-app';

type TOperation = { summary?: string; operationId?: string };
type TDocument = {
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, TOperation>>;
  components: { schemas?: Record<string, unknown> };
};

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

function operationsOf(doc: TDocument): Array<{ where: string } & TOperation> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({ where: `${method.toUpperCase()} ${path}`, ...operation })),
  );
}

describe('the OpenAPI document at /api/openapi.json', () => {
  let t: TTestApp;
  let doc: TDocument;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    const response = await t.app.inject({ url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    doc = response.json();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('passes swagger-parser validation (schema and every $ref)', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('names its server relatively, so clients call the instance they fetched it from', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.paths).toHaveProperty(['/api/user/proxy-configurations']);
  });

  it('generates TypeScript types with openapi-typescript, one operation per operationId', async () => {
    const types = astToString(await openapiTS(structuredClone(doc) as never, { silent: true }));
    for (const { operationId } of operationsOf(doc)) {
      expect(types).toContain(`    ${operationId}: {`);
    }
    // The translated text of a failure and of a log line: a reference that resolves, or null.
    expect(types).toMatch(/text: components\["schemas"\]\["Text"\] \| \(?null\)?;/);
  });

  it('gives every operation a summary and a unique operationId', () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(50);
    const missing = operations
      .filter((operation) => !operation.summary?.trim() || !operation.operationId)
      .map((operation) => operation.where);
    expect(missing).toEqual([]);
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]*$/);
  });

  it('types every nullable schema and lists only components something refers to', () => {
    const untyped: string[] = [];
    const visit = (node: unknown, where: string) => {
      if (typeof node !== 'object' || node === null) return;
      const record = node as Record<string, unknown>;
      if (record.nullable === true && !('type' in record)) untyped.push(where);
      for (const [key, child] of Object.entries(record)) visit(child, `${where}/${key}`);
    };
    visit(doc, '#');
    expect(untyped).toEqual([]);

    const schemas = doc.components.schemas ?? {};
    expect(Object.keys(schemas)).toContain('Text');
    for (const name of Object.keys(schemas)) {
      const { [name]: _itself, ...others } = schemas;
      const elsewhere = JSON.stringify({ paths: doc.paths, others });
      expect(elsewhere, name).toContain(`"#/components/schemas/${name}"`);
    }
  });
});
