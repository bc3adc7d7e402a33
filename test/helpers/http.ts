import { LATEST_VERSION } from '../../src/versioning/versions.js';

export interface HttpResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string | null;
  version?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One HTTP call over a real socket; defaults to the newest version and JSON. */
export async function call<T = Record<string, unknown>>(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const version = options.version === undefined ? LATEST_VERSION : options.version;
  if (version !== null) headers['Notion-Version'] = version;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // leave as text: the test asserts on it
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}
