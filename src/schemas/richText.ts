import { Type, type Static } from 'typebox';
import { IdString, StrictObject } from './common.js';

/** The 20 colours of the spec ("Rich text item"). */
export const COLORS = [
  'default',
  'gray',
  'brown',
  'orange',
  'yellow',
  'green',
  'blue',
  'purple',
  'pink',
  'red',
  'default_background',
  'gray_background',
  'brown_background',
  'orange_background',
  'yellow_background',
  'green_background',
  'blue_background',
  'purple_background',
  'pink_background',
  'red_background',
] as const;
export const Color = Type.Union(COLORS.map((c) => Type.Literal(c)));

/** FACTS.md §6 size limits: these become validation_error messages naming the field. */
export const LIMITS = { textContent: 2000, url: 2000, equation: 1000, arrayItems: 100 } as const;

export const AnnotationsRequest = StrictObject({
  bold: Type.Optional(Type.Boolean()),
  italic: Type.Optional(Type.Boolean()),
  strikethrough: Type.Optional(Type.Boolean()),
  underline: Type.Optional(Type.Boolean()),
  code: Type.Optional(Type.Boolean()),
  color: Type.Optional(Color),
});

const Url = Type.String({ minLength: 1, maxLength: LIMITS.url });
/** Echoed response items carry these; they are accepted and recomputed, never trusted. */
const echoed = {
  annotations: Type.Optional(AnnotationsRequest),
  plain_text: Type.Optional(Type.String()),
  href: Type.Optional(Type.Union([Type.String(), Type.Null()])),
};

const PartialUserRef = StrictObject({ id: IdString, object: Type.Optional(Type.Literal('user')) });
const IdRef = StrictObject({ id: IdString });
const IsoDate = Type.String({ minLength: 10, maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}' });
export const DateRequest = StrictObject({
  start: IsoDate,
  end: Type.Optional(Type.Union([IsoDate, Type.Null()])),
  time_zone: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
});

export const MentionRequest = Type.Union([
  StrictObject({ type: Type.Optional(Type.Literal('user')), user: PartialUserRef }),
  StrictObject({ type: Type.Optional(Type.Literal('page')), page: IdRef }),
  StrictObject({ type: Type.Optional(Type.Literal('database')), database: IdRef }),
  StrictObject({ type: Type.Optional(Type.Literal('data_source')), data_source: IdRef }),
  StrictObject({ type: Type.Optional(Type.Literal('date')), date: DateRequest }),
  StrictObject({ type: Type.Optional(Type.Literal('link_preview')), link_preview: StrictObject({ url: Url }) }),
  StrictObject({
    type: Type.Optional(Type.Literal('link_mention')),
    link_mention: Type.Object({ href: Url }, { additionalProperties: true }),
  }),
  StrictObject({
    type: Type.Optional(Type.Literal('template_mention')),
    template_mention: Type.Union([
      StrictObject({
        type: Type.Optional(Type.Literal('template_mention_date')),
        template_mention_date: Type.Union([Type.Literal('today'), Type.Literal('now')]),
      }),
      StrictObject({ type: Type.Optional(Type.Literal('template_mention_user')), template_mention_user: Type.Literal('me') }),
    ]),
  }),
  StrictObject({
    type: Type.Optional(Type.Literal('custom_emoji')),
    custom_emoji: StrictObject({ id: IdString, name: Type.Optional(Type.String({ maxLength: 200 })), url: Type.Optional(Url) }),
  }),
]);

export const TextItemRequest = StrictObject({
  type: Type.Optional(Type.Literal('text')),
  text: StrictObject({
    content: Type.String({ maxLength: LIMITS.textContent }),
    // Open, as the service's published request schema leaves it: markdown-to-blocks libraries send
    // `{type: "url", url}`. Only `url` is kept (src/domain/richText.ts).
    link: Type.Optional(Type.Union([Type.Object({ url: Url }, { additionalProperties: true }), Type.Null()])),
  }),
  ...echoed,
});
export const MentionItemRequest = StrictObject({ type: Type.Optional(Type.Literal('mention')), mention: MentionRequest, ...echoed });
export const EquationItemRequest = StrictObject({
  type: Type.Optional(Type.Literal('equation')),
  equation: StrictObject({ expression: Type.String({ maxLength: LIMITS.equation }) }),
  ...echoed,
});

export const RichTextItemRequest = Type.Union([TextItemRequest, MentionItemRequest, EquationItemRequest]);
export const RichTextRequestArray = Type.Array(RichTextItemRequest, { maxItems: LIMITS.arrayItems });

export type RichTextItemInput = Static<typeof RichTextItemRequest>;
export type MentionInput = Static<typeof MentionRequest>;
