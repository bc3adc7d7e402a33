/**
 * The parts of an OpenAPI 3.1 document that the version modules rewrite to describe an older
 * version (VersionChange.downgradeDocument): response schemas, found by the API object they
 * describe, and operations, found by route. Plain JSON in, plain JSON out: the document itself is
 * generated from the route schemas by src/http/openapi.ts.
 */

export interface SchemaNode {
  [key: string]: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  anyOf?: SchemaNode[];
  items?: SchemaNode;
}

export interface OpenApiDocument {
  [key: string]: unknown;
  paths: Record<string, Record<string, OperationNode>>;
}

export interface OperationNode {
  [key: string]: unknown;
  requestBody?: { content?: Record<string, { schema?: SchemaNode }> };
  responses?: Record<string, { content?: Record<string, { schema?: SchemaNode }> }>;
}

const isNode = (value: unknown): value is SchemaNode => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** The single value a schema allows (`const`, or a one-member `enum` as @fastify/swagger writes a literal). */
export function literalOf(schema: SchemaNode | undefined): unknown {
  if (!schema) return undefined;
  if ('const' in schema) return schema.const;
  return Array.isArray(schema.enum) && schema.enum.length === 1 ? schema.enum[0] : undefined;
}

/** Calls fn on every object schema in the document whose `object` member is one literal (an API object: page, block, …), innermost first. */
export function forEachObjectSchema(node: unknown, fn: (schema: SchemaNode, object: string) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) forEachObjectSchema(item, fn);
    return;
  }
  if (!isNode(node)) return;
  for (const value of Object.values(node)) forEachObjectSchema(value, fn);
  const object = literalOf(node.properties?.object);
  if (typeof object === 'string') fn(node, object);
}

/** Calls fn on every `anyOf` list in the document, so a module can drop or change a variant. */
export function forEachUnion(node: unknown, fn: (variants: SchemaNode[]) => SchemaNode[]): void {
  if (Array.isArray(node)) {
    for (const item of node) forEachUnion(item, fn);
    return;
  }
  if (!isNode(node)) return;
  for (const value of Object.values(node)) forEachUnion(value, fn);
  if (Array.isArray(node.anyOf)) node.anyOf = fn(node.anyOf);
}

/** Adds a member before `before` (or last), keeping the members in the order the objects show them. */
export function addProperty(schema: SchemaNode, name: string, property: SchemaNode, options: { required: boolean; before?: string }): void {
  const entries = Object.entries(schema.properties ?? {}).filter(([key]) => key !== name);
  const at = options.before ? entries.findIndex(([key]) => key === options.before) : -1;
  entries.splice(at >= 0 ? at : entries.length, 0, [name, property]);
  schema.properties = Object.fromEntries(entries);
  if (options.required && !(schema.required ?? []).includes(name)) schema.required = [...(schema.required ?? []), name];
}

/** A list answer's type (`{type: "page_or_data_source", page_or_data_source: {}}`) under another name. */
export function renameListType(list: SchemaNode | undefined, from: string, to: string): void {
  const properties = list?.properties;
  if (!list || !properties || !(from in properties)) return;
  list.properties = Object.fromEntries(
    Object.entries(properties).map(([key, value]) => (key === from ? [to, value] : key === 'type' ? [key, { type: 'string', enum: [to] }] : [key, value])),
  );
  if (list.required) list.required = list.required.map((key) => (key === from ? to : key));
}

/** Drops the variants of a `parent` union whose `type` is one of `types`. */
export function dropParentTypes(schema: SchemaNode, types: readonly string[]): void {
  const parent = schema.properties?.parent;
  if (!parent?.anyOf) return;
  parent.anyOf = parent.anyOf.filter((variant) => !types.includes(literalOf(variant.properties?.type) as string));
}

/** Renames a member in place, keeping its place and whether it is required. */
export function renameProperty(schema: SchemaNode, from: string, to: string, property?: SchemaNode): void {
  if (!schema.properties || !(from in schema.properties)) return;
  schema.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => (key === from ? [to, property ?? value] : [key, value])));
  if (schema.required) schema.required = schema.required.map((key) => (key === from ? to : key));
}

/** Calls fn on every schema node of the document (request and response schemas, components), innermost first. */
export function forEachSchema(node: unknown, fn: (schema: SchemaNode) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) forEachSchema(item, fn);
    return;
  }
  if (!isNode(node)) return;
  for (const value of Object.values(node)) forEachSchema(value, fn);
  fn(node);
}

/** The JSON schema of a route's request body, if it takes one. */
export function requestSchema(document: OpenApiDocument, route: string): SchemaNode | undefined {
  const { method, path } = documentPath(route);
  return document.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
}

export function removeProperty(schema: SchemaNode, name: string): void {
  if (!schema.properties || !(name in schema.properties)) return;
  const { [name]: _removed, ...rest } = schema.properties;
  schema.properties = rest;
  if (schema.required) schema.required = schema.required.filter((key) => key !== name);
}

/** `PATCH /v1/pages/:page_id` → the document's `/v1/pages/{page_id}` and `patch`. */
export function documentPath(route: string): { method: string; path: string } {
  const [method, url] = route.split(' ') as [string, string];
  return { method: method.toLowerCase(), path: url.replace(/:(\w+)/g, '{$1}') };
}

/** The reverse of documentPath: the route key the version modules name. */
export function routeOf(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
}

/** The JSON schema of a route's success answer, if the document describes one. */
export function successSchema(document: OpenApiDocument, route: string): SchemaNode | undefined {
  const { method, path } = documentPath(route);
  const responses = document.paths[path]?.[method]?.responses;
  return (responses?.['200'] ?? responses?.['202'])?.content?.['application/json']?.schema;
}

export function setSuccessSchema(document: OpenApiDocument, route: string, schema: SchemaNode): void {
  const { method, path } = documentPath(route);
  const responses = document.paths[path]?.[method]?.responses;
  const success = responses?.['200'] ?? responses?.['202'];
  const content = success?.content?.['application/json'];
  if (content) content.schema = schema;
}
