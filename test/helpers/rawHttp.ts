/**
 * Bytes straight onto a socket, for requests no HTTP client will send (a malformed request line,
 * a Content-Length that disagrees with the body, headers over the limit) and for random bytes.
 * By default the write side is closed after the bytes, so the server answers or closes (an
 * incomplete request would otherwise wait for more); Node then aborts a request still being
 * served, so complete requests that must be answered pass `halfClose: false`. The first response
 * is parsed.
 */
import net from 'node:net';

export interface RawAnswer {
  /** null: the server closed the connection without answering. */
  status: number | null;
  headers: Map<string, string>;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: any;
  /** The socket stayed open past the timeout with no complete answer. */
  hung: boolean;
}

export function rawRequest(baseUrl: string, bytes: string | Uint8Array, options: { timeoutMs?: number; halfClose?: boolean } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (hung: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks), hung));
    };
    const timer = setTimeout(() => finish(true), options.timeoutMs ?? 5000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A complete first answer ends the wait even if the server keeps the connection.
      if (complete(Buffer.concat(chunks))) finish(false);
    });
    socket.on('close', () => finish(false));
    socket.on('error', () => finish(false));
    socket.write(bytes, () => {
      if (options.halfClose ?? true) socket.end();
    });
  });
}

function complete(data: Buffer): boolean {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(data.subarray(0, end).toString('latin1'));
  return length !== null && data.length >= end + 4 + Number(length[1]);
}

function parseAnswer(data: Buffer, hung: boolean): RawAnswer {
  const end = data.indexOf('\r\n\r\n');
  const headers = new Map<string, string>();
  if (end < 0) return { status: null, headers, text: '', json: undefined, hung };
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const length = headers.has('content-length') ? Number(headers.get('content-length')) : undefined;
  const text = data.subarray(end + 4, length === undefined ? undefined : end + 4 + length).toString('utf8');
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: status ? Number(status[1]) : null, headers, text, json, hung };
}
