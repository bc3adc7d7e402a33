import { Type, type Static } from 'typebox';
import { StrictObject } from './common.js';

/**
 * The page-markdown endpoints (FACTS.md §10.1 1.5, 1.6; the SDK's GetPageMarkdownParameters,
 * UpdatePageMarkdownBodyParameters and PageMarkdownResponse).
 */

export const PageMarkdownParams = StrictObject({ page_id: Type.String({ maxLength: 200 }) });

export const PageMarkdownQuery = StrictObject({ include_transcript: Type.Optional(Type.Boolean()) });

const AllowDeleting = { allow_deleting_content: Type.Optional(Type.Boolean()) };

/** The ellipsis selections (`"start...end"`) and the texts an edit writes. */
const Text = Type.String();

export const InsertContent = StrictObject({
  content: Text,
  after: Type.Optional(Text),
  position: Type.Optional(Type.Union([StrictObject({ type: Type.Literal('start') }), StrictObject({ type: Type.Literal('end') })])),
});
export const ReplaceContentRange = StrictObject({ content: Text, content_range: Text, ...AllowDeleting });
export const ContentUpdate = StrictObject({ old_str: Text, new_str: Text, replace_all_matches: Type.Optional(Type.Boolean()) });
export const UpdateContent = StrictObject({ content_updates: Type.Array(ContentUpdate, { maxItems: 100 }), ...AllowDeleting });
export const ReplaceContent = StrictObject({ new_str: Text, ...AllowDeleting });

export const EDIT_TYPES = ['insert_content', 'replace_content_range', 'update_content', 'replace_content'] as const;

/**
 * One object with every mode's member optional, as the block bodies are (src/domain/blocks/requestSchemas.ts):
 * a mistake inside a member is reported at its path, and that `type` names the one member given
 * is the command's check. `allow_async: true` answers 202 with an async task that makes the edit (src/commands/asyncTasks/).
 */
export const UpdatePageMarkdownBody = StrictObject({
  type: Type.Enum([...EDIT_TYPES]),
  allow_async: Type.Optional(Type.Boolean()),
  insert_content: Type.Optional(InsertContent),
  replace_content_range: Type.Optional(ReplaceContentRange),
  update_content: Type.Optional(UpdateContent),
  replace_content: Type.Optional(ReplaceContent),
});
export type UpdatePageMarkdownInput = Static<typeof UpdatePageMarkdownBody>;

export const PageMarkdownResponse = Type.Object(
  {
    object: Type.Literal('page_markdown'),
    id: Type.String(),
    markdown: Type.String(),
    truncated: Type.Boolean(),
    unknown_block_ids: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type PageMarkdownJson = Static<typeof PageMarkdownResponse>;
