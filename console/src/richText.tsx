import { MathView } from './math.tsx';
import type { RichText } from './types.ts';

/** The API's colours, text and background, as classes (styles.css). */
const colorClass = (color: string) => (color && color !== 'default' ? `c-${color}` : '');

function mentionText(item: Extract<RichText, { type: 'mention' }>): string {
  const m = item.mention;
  switch (m.type) {
    case 'user':
      return `@${'name' in m.user && m.user.name ? m.user.name : item.plain_text.replace(/^@/, '')}`;
    case 'date':
      return m.date.end ? `${m.date.start} → ${m.date.end}` : m.date.start;
    default:
      return item.plain_text;
  }
}

/** Rich text as the service shows it: annotations, colours, links, mentions and inline equations. */
export function RichTextView({ items }: { items: RichText[] }) {
  return (
    <>
      {items.map((item, index) => {
        const a = item.annotations;
        const classes = [
          a.bold && 'b',
          a.italic && 'i',
          a.strikethrough && 's',
          a.underline && 'u',
          colorClass(a.color),
          item.type === 'mention' && `mention mention-${item.mention.type}`,
          item.type === 'equation' && 'equation',
        ]
          .filter(Boolean)
          .join(' ');
        let content = item.type === 'mention' ? mentionText(item) : item.type === 'equation' ? item.equation.expression : item.plain_text;
        if (item.type === 'text') content = item.text.content;
        let node = item.type === 'equation' ? <MathView expression={content} display={false} /> : a.code ? <code>{content}</code> : <>{content}</>;
        const link = item.href ?? (item.type === 'text' ? item.text.link?.url : undefined);
        if (link)
          node = (
            <a href={link} rel="noreferrer noopener" target="_blank">
              {node}
            </a>
          );
        return (
          <span key={index} class={classes || undefined}>
            {node}
          </span>
        );
      })}
    </>
  );
}

export const plainText = (items: RichText[]) => items.map((i) => i.plain_text).join('');
