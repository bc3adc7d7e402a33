import { useEffect, useState } from 'preact/hooks';

/**
 * KaTeX, fetched with the first equation shown (its own chunk), so the console's first load stays
 * small. MathML output: the browser lays the formula out itself, so there are no inline styles
 * (the console's policy allows none) and no fonts to serve.
 */
let katex: Promise<typeof import('katex')> | null = null;

/** An equation as the service shows it: typeset; its TeX source until KaTeX has loaded, or if it cannot be read. */
export function MathView({ expression, display }: { expression: string; display: boolean }) {
  const [markup, setMarkup] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    (katex ??= import('katex'))
      .then(({ default: k }) => {
        if (live) setMarkup(k.renderToString(expression, { output: 'mathml', displayMode: display, throwOnError: false }));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [expression, display]);
  const Tag = display ? 'div' : 'span';
  // KaTeX escapes the source and, untrusted (its default), emits no links, classes or styles from it.
  return markup === null ? <Tag class="tex">{expression}</Tag> : <Tag class="math" dangerouslySetInnerHTML={{ __html: markup }} />;
}
