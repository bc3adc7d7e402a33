import type { FieldPath, ValidationFailure } from '../errors/validationFailure.js';
import type { VersionChange, VersionedRequest } from './change.js';
import { olderFactsOf } from './olderFacts.js';
import { routeOf, type OpenApiDocument } from './openapiDocument.js';
import { API_VERSIONS, compareVersions, type ApiVersion } from './versions.js';
import { VERSION_CHANGES } from './changes/index.js';

export class VersionEngine {
  private readonly changes: readonly VersionChange[];

  constructor(changes: readonly VersionChange[] = VERSION_CHANGES) {
    for (const change of changes) {
      if (!API_VERSIONS.includes(change.version)) throw new Error(`version change for unknown version ${change.version}`);
    }
    // Stable sort keeps registration order among changes of the same version.
    this.changes = [...changes].sort((a, b) => compareVersions(a.version, b.version));
  }

  /** Changes a caller at `version` has not seen yet, oldest first. */
  pending(version: ApiVersion): VersionChange[] {
    return this.changes.filter((c) => compareVersions(c.version, version) > 0);
  }

  /**
   * Whether `route` does not exist at `version`: a change at or before it removed the route
   * (VersionChange.removedRoutes), or a later one added it (addedRoutes). Such a route answers as
   * an unknown one does, and the version's OpenAPI document leaves it out.
   */
  isAbsent(version: ApiVersion, route: string): boolean {
    let absent = this.absentAt.get(version);
    if (!absent) {
      absent = {
        removed: new Set(this.changes.filter((c) => compareVersions(c.version, version) <= 0).flatMap((c) => c.removedRoutes ?? [])),
        added: this.pending(version).flatMap((c) => c.addedRoutes ?? []),
      };
      this.absentAt.set(version, absent);
    }
    const path = route.slice(route.indexOf(' ') + 1);
    return absent.removed.has(route) || absent.added.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  }

  private readonly absentAt = new Map<ApiVersion, { removed: ReadonlySet<string>; added: readonly string[] }>();

  /**
   * The OpenAPI document of `version`, from the newest version's: the routes that exist at it,
   * then each newer change's downgradeDocument, newest first (the schema side of
   * downgradeResponse). The newest document is limited to its routes the same way.
   */
  documentAt(version: ApiVersion, newest: OpenApiDocument): OpenApiDocument {
    const document = structuredClone(newest);
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations)) {
        if (this.isAbsent(version, routeOf(method, path))) delete operations[method];
      }
      if (Object.keys(operations).length === 0) delete document.paths[path];
    }
    for (const change of this.pending(version).reverse()) change.downgradeDocument?.(document);
    return document;
  }

  /** Walks a request from the caller's version forward to HEAD, mutating it in place. */
  upgradeRequest(version: ApiVersion, request: VersionedRequest): void {
    for (const change of this.pending(version)) change.upgradeRequest?.(request);
  }

  /** Walks a HEAD response back to the caller's version, newest change first, with the facts the route gave beside it. */
  downgradeResponse(version: ApiVersion, route: string, body: unknown): unknown {
    return downgradeThrough(this.pending(version).reverse(), route, body);
  }

  /**
   * Validation runs on the upgraded request, so a failure names HEAD fields; a caller at an older
   * version must read the field it sent. Request converters only rewrite the body, so only body
   * paths are mapped back through the pending changes, newest first. The same failure comes back
   * when no change renames its path.
   */
  translateValidationFailure(version: ApiVersion, route: string, failure: ValidationFailure): ValidationFailure {
    if (failure.part !== 'body') return failure;
    let path = failure.path;
    for (const change of this.pending(version).reverse()) path = change.callerPath?.(path, route) ?? path;
    return samePath(path, failure.path) ? failure : failure.at(path);
  }

  /** Markdown changelog, generated from the modules (docs/changelog.md is kept equal to it by a test). */
  changelog(): string {
    const lines = ['# API version changelog', '', 'Generated from `src/versioning/changes/` by `npm run changelog`. Newest first.', ''];
    for (const version of [...API_VERSIONS].reverse()) {
      lines.push(`## ${version}`, '');
      const here = this.changes.filter((c) => c.version === version);
      if (here.length === 0) lines.push(version === API_VERSIONS[0] ? '- The first public version.' : '- No change modelled by Folio.');
      for (const change of here) lines.push(`- ${change.description}`);
      lines.push('');
    }
    return lines.join('\n');
  }
}

function samePath(a: FieldPath, b: FieldPath): boolean {
  return a.length === b.length && a.every((seg, i) => seg === b[i]);
}

function downgradeThrough(newestFirst: readonly VersionChange[], route: string, body: unknown): unknown {
  const facts = olderFactsOf(body);
  let current = body;
  newestFirst.forEach((change, i) => {
    if (!change.downgradeResponse) return;
    current = change.downgradeResponse({ route, body: current, facts, downgradeNewer: (head) => downgradeThrough(newestFirst.slice(0, i), route, head) });
  });
  return current;
}
