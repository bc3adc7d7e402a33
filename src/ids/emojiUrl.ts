/**
 * Where an emoji's image is served (src/routes/customEmojis/index.ts): a stable public address, as
 * the service's emoji URLs are, since the URL is stored wherever the emoji is used.
 */
export function emojiUrl(publicUrl: string, id: string): string {
  return `${publicUrl}/emojis/${id}`;
}
