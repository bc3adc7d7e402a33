import type { HostedFileLinks } from '../../domain/files/hostedFiles.js';
import { HOSTED_SCHEME } from '../../domain/files/hostedFiles.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';

/**
 * Hosted files in markdown. The content stores `folio-file:` references, which the JSON answers
 * sign where they appear as `{"url", "expiry_time"}`; in markdown they are text, so the markdown
 * commands sign them (GET, and PATCH's answer) and turn signed links sent back into references
 * again, but only references the page already holds: markdown cannot attach another file.
 */
const REFERENCE = new RegExp(`${HOSTED_SCHEME}([0-9a-f-]{36})/([^"\\s)<>]*)`, 'g');

export function signFileLinks(markdown: string, links: HostedFileLinks, origin: string, now: Date): string {
  if (!markdown.includes(HOSTED_SCHEME)) return markdown;
  return markdown.replace(REFERENCE, (_match, id: string, name: string) => links.link(origin, id, name, now).url);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Signed links of this server back to the references `held` contains (the page's unsigned markdown). */
export function unsignFileLinks(text: string, held: string, origin: string): string {
  const signed = new RegExp(`${escapeRegExp(origin)}/files/([0-9a-f-]{36})/([^?"\\s)<>]*)\\?expires=\\d+(?:&amp;|&)signature=[A-Za-z0-9_-]+`, 'g');
  return text.replace(signed, (link, id: string, name: string) => {
    const reference = `${HOSTED_SCHEME}${id}/${name}`;
    return held.includes(reference) ? reference : link;
  });
}

/** A hosted reference written into markdown must be one the page holds: markdown cannot reach another upload. */
export function assertHeldReferences(text: string, held: string, field: FieldPath): void {
  for (const [reference] of text.matchAll(REFERENCE)) {
    if (!held.includes(reference)) throw invalidField(field, 'should name hosted files only by the links this page gave', reference);
  }
}
