/**
 * The baseline of bench/uploads: the same bytes written to and read from a file with plain Node
 * streams behind a bare HTTP server, no parsing, checks or store. `PUT /file` writes the body,
 * `GET /file` streams it back; the port comes from PLAIN_PORT, the directory from PLAIN_DIR.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const file = path.join(process.env.PLAIN_DIR!, 'file.bin');
http
  .createServer((request, response) => {
    if (request.url === '/ready') return response.end('ok');
    if (request.method === 'PUT') {
      pipeline(request, fs.createWriteStream(file)).then(
        () => response.end('stored'),
        (error: Error) => response.writeHead(500).end(error.message),
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(response);
  })
  .listen(Number(process.env.PLAIN_PORT), '127.0.0.1');
