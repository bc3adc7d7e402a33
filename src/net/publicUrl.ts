import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Transform, type Readable, type TransformCallback } from 'node:stream';

/**
 * Reaching a URL a caller gave (`external_url` uploads, FACTS: "an HTTPS, public URL") without
 * letting it reach the server's own network. Literal addresses are judged by `checkUrl`; names are
 * judged by the `lookup` the connection itself uses, so the address judged is the address
 * connected to, and a name whose answer changes between a check and the fetch (DNS rebinding)
 * gains nothing. Every redirect is judged again the same way.
 *
 * Every failure is one of three errors, with a message that reads after "body.external_url":
 * `UrlRefused` (the URL may not be fetched), `TooLarge` (more bytes than allowed) and
 * `FetchFailed` (the URL could not be fetched: no answer, an error status, a broken connection).
 */
export interface UrlPolicy {
  /**
   * Loopback, private and link-local addresses allowed, and plain http to them, since a local twin
   * has no certificates (FOLIO_ALLOW_PRIVATE_URLS=1). Public addresses need https either way.
   */
  allowPrivate: boolean;
}

export type UrlRefusalReason = 'scheme' | 'private_address' | 'unresolvable' | 'malformed' | 'credentials';

export class UrlRefused extends Error {
  override readonly name = 'UrlRefused';
  constructor(
    readonly reason: UrlRefusalReason,
    message: string,
  ) {
    super(message);
  }
}

export class TooLarge extends Error {
  override readonly name = 'TooLarge';
  constructor(readonly limit: number) {
    super(`should be a file of at most ${limit} bytes`);
  }
}

export class FetchFailed extends Error {
  override readonly name = 'FetchFailed';
  /** `statusCode` is the status the URL answered, or null when it gave none. */
  constructor(
    readonly statusCode: number | null,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULT_TIMEOUT_MS = 10_000;

/** IPv4 ranges that are not the public internet (RFC 6890 and its updates). */
const NOT_PUBLIC_IPV4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"; Linux connects 0.0.0.0 to the local host
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT, often a provider's internal network
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, where cloud metadata services answer
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast with it
];

/** IPv6 prefixes that carry an IPv4 address in their last 32 bits, which is what a packet reaches. */
const IPV4_CARRYING_PREFIXES = ['::ffff:', '64:ff9b::']; // IPv4-mapped (RFC 4291), NAT64 (RFC 6052)

const NOT_PUBLIC = new BlockList();
for (const [address, prefix] of NOT_PUBLIC_IPV4) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv4');
  for (const carrier of IPV4_CARRYING_PREFIXES) NOT_PUBLIC.addSubnet(`${carrier}${address}`, 96 + prefix, 'ipv6');
}
for (const [address, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv6');
}

/**
 * Whether `ip` is an address outside the public internet. Anything that is not an IP address
 * counts as private: this answers "may we connect there", and the safe answer to nonsense is no.
 */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  return NOT_PUBLIC.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Syntax, credentials, scheme and a literal address, at once. A name is judged when it is resolved
 * for the connection; Node connects to a literal address without a lookup, so those are judged here.
 */
export function checkUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused('malformed', 'should be an absolute URL, such as https://example.com/photo.png');
  }
  if (url.username !== '' || url.password !== '') throw new UrlRefused('credentials', 'should be a URL without a user name or password');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowPrivate)) {
    throw new UrlRefused('scheme', `should be an https URL, not ${url.protocol}`);
  }
  // The URL parser has already normalised other spellings (0x7f.1, 2130706433) to these forms.
  const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(literal) !== 0) {
    const refusal = judgeAddress(literal, null, url.protocol, policy);
    if (refusal) throw refusal;
  }
  return url;
}

/** Why connecting to `address` (what `host` resolved to, or a literal when null) is refused, if it is. */
function judgeAddress(address: string, host: string | null, protocol: string, policy: UrlPolicy): UrlRefused | null {
  const isPrivate = isPrivateAddress(address);
  const which = (kind: string) => (host === null ? `${address} is ${kind}` : `${host} resolves to ${address}, which is ${kind}`);
  if (isPrivate && !policy.allowPrivate) return new UrlRefused('private_address', `should be a public address: ${which('private')}`);
  if (!isPrivate && protocol !== 'https:') {
    return new UrlRefused('scheme', `should be an https URL: plain http is allowed only to private addresses, and ${which('public')}`);
  }
  return null;
}

/**
 * The `lookup` a connection resolves its host with: all of the host's addresses, refused if any one
 * is refused, since the connection may go to any of them (Node tries several with autoSelectFamily).
 */
function guardedLookup(protocol: string, policy: UrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error || addresses.length === 0) {
        return callback(
          new UrlRefused('unresolvable', `should be a URL whose host resolves: ${hostname} has no address (${error?.code ?? 'empty answer'})`),
          '',
        );
      }
      for (const { address } of addresses) {
        const refusal = judgeAddress(address, hostname, protocol, policy);
        if (refusal) return callback(refusal, '');
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

interface Answer {
  request: http.ClientRequest;
  response: http.IncomingMessage;
  url: URL;
}

/**
 * `method` on `start`, following redirects (each target judged again) to a 2xx answer whose body
 * is still unread. `timeoutMs` bounds the whole chain up to the final answer's headers.
 */
async function follow(method: 'HEAD' | 'GET', start: URL, policy: UrlPolicy, timeoutMs: number): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  // The URL may not have come through checkUrl, and a literal address is judged nowhere else.
  let url = checkUrl(start.href, policy);
  for (let redirects = 0; ; redirects++) {
    const answer = await send(method, url, policy, deadline, timeoutMs);
    const status = answer.response.statusCode ?? 0;
    const location = answer.response.headers.location;
    if (REDIRECT_STATUSES.has(status) && location !== undefined) {
      answer.response.destroy();
      if (redirects === MAX_REDIRECTS) throw new FetchFailed(status, `should be a URL that redirects at most ${MAX_REDIRECTS} times`);
      url = redirectTarget(location, url, policy);
      continue;
    }
    if (status < 200 || status > 299) {
      answer.response.destroy();
      throw new FetchFailed(status, `should be a URL that answers with a 2xx status, not ${status}`);
    }
    return answer;
  }
}

function redirectTarget(location: string, from: URL, policy: UrlPolicy): URL {
  let target: string;
  try {
    target = new URL(location, from).href;
  } catch {
    throw new UrlRefused('malformed', `should be a URL that redirects to a URL, not to ${JSON.stringify(location)}`);
  }
  try {
    return checkUrl(target, policy);
  } catch (error) {
    if (error instanceof UrlRefused) throw new UrlRefused(error.reason, `${error.message} (it redirects to ${target})`);
    throw error;
  }
}

function send(method: 'HEAD' | 'GET', url: URL, policy: UrlPolicy, deadline: number, timeoutMs: number): Promise<Answer> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method,
      // A pooled socket may have been connected without this lookup, to an address never judged.
      agent: false,
      lookup: guardedLookup(url.protocol, policy),
      // The bytes stored are the bytes of the file, not a compressed form of them.
      headers: { accept: '*/*', 'accept-encoding': 'identity', 'user-agent': 'Folio external file import' },
    });
    const timer = setTimeout(
      () => request.destroy(new FetchFailed(null, `should be a URL that answers within ${timeoutMs} ms`)),
      Math.max(0, deadline - Date.now()),
    );
    request.on('response', (response) => {
      clearTimeout(timer);
      resolve({ request, response, url });
    });
    // Kept for the life of the request: a socket error after the response is emitted here too.
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(asFetchError(error, url));
    });
    request.end();
  });
}

function asFetchError(error: Error, url: URL): Error {
  if (error instanceof UrlRefused || error instanceof FetchFailed) return error;
  return new FetchFailed(null, `should be a URL that can be reached: ${url.host} failed with ${error.message}`, { cause: error });
}

function contentLengthOf(response: http.IncomingMessage): number | null {
  const value = response.headers['content-length'];
  if (value === undefined || !/^\d+$/.test(value)) return null;
  const length = Number(value);
  return Number.isSafeInteger(length) ? length : null;
}

/** The media type alone (`image/png` from `Image/PNG; charset=…`), or null when there is none. */
function contentTypeOf(response: http.IncomingMessage): string | null {
  const type = response.headers['content-type']?.split(';')[0].trim().toLowerCase();
  return type ? type : null;
}

/** A HEAD request: the type and length the URL announces, and where its redirects ended. */
export async function probeUrl(
  url: URL,
  policy: UrlPolicy,
  options: { timeoutMs?: number } = {},
): Promise<{ contentType: string | null; contentLength: number | null; finalUrl: URL }> {
  const { response, url: finalUrl } = await follow('HEAD', url, policy, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  response.destroy();
  return { contentType: contentTypeOf(response), contentLength: contentLengthOf(response), finalUrl };
}

/**
 * A GET request whose body errors with TooLarge at the first chunk past `maxBytes`: a server may
 * send no Content-Length, or a false one, so the bytes are counted as they pass. A Content-Length
 * over the limit is refused before any byte is read. `timeoutMs` bounds the wait for the answer,
 * and then each silence in the body (a download as a whole may take as long as it keeps moving).
 */
export async function fetchUrl(
  url: URL,
  policy: UrlPolicy,
  options: { maxBytes: number; timeoutMs?: number },
): Promise<{ body: Readable; contentType: string | null; contentLength: number | null }> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { request, response, url: finalUrl } = await follow('GET', url, policy, timeoutMs);
  const contentLength = contentLengthOf(response);
  if (contentLength !== null && contentLength > options.maxBytes) {
    response.destroy();
    throw new TooLarge(options.maxBytes);
  }
  let passed = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      passed += chunk.length;
      callback(passed > options.maxBytes ? new TooLarge(options.maxBytes) : null, chunk);
    },
  });
  const fail = (error: Error) => body.destroy(asFetchError(error, finalUrl));
  response.on('error', fail);
  request.on('error', fail);
  request.setTimeout(timeoutMs, () => body.destroy(new FetchFailed(null, `should be a URL that sends its file without pausing for ${timeoutMs} ms`)));
  // Over the limit, failed, or abandoned by its reader: nothing more is read from the server.
  body.on('close', () => response.destroy());
  response.pipe(body);
  return { body, contentType: contentTypeOf(response), contentLength };
}
