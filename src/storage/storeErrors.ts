/**
 * PostgreSQL classes and codes that say the server or the connection to it is gone, not that the
 * statement was wrong (PostgreSQL appendix A): connection exceptions (08…), an administrator or
 * crash shutdown (57P01–57P03), too many connections (53300).
 */
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);

/** Socket failures node-postgres passes through as they come from `net`. */
const SOCKET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * better-sqlite3 codes for a file that cannot take the write: the disk is full, the file or its
 * directory became read-only, or the OS refused the I/O. The statement was sound; the store is not.
 */
const SQLITE_UNAVAILABLE = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN)/;

/**
 * Whether an error thrown by a store call means the store is unreachable (answered 503
 * `service_unavailable`, a retry later is safe) rather than a fault of the server (500).
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08') || PG_UNAVAILABLE.has(code) || SOCKET_UNAVAILABLE.has(code) || SQLITE_UNAVAILABLE.test(code)) return true;
  }
  // node-postgres throws these without a code when the socket closes under a query or a checkout.
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string' && /^Connection terminated|^timeout exceeded when trying to connect|Client has encountered a connection error/.test(message))
    return true;
  // Several connection attempts failing together (IPv4 and IPv6 of one host) come as one AggregateError.
  if (error instanceof AggregateError) return error.errors.some(isStoreUnavailable);
  return false;
}
