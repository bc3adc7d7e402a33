const cache = new Map<string, RegExp | string>();

/**
 * Compiles a formula's regular expression, or returns a human-readable reason
 * it was rejected. Besides syntax errors this rejects quantified groups that
 * themselves contain a quantifier (e.g. "(a+)+"), the classic shape of
 * catastrophic backtracking, because JavaScript regexes cannot be interrupted.
 */
export function compilePattern(pattern: string): RegExp | string {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    const risky = findNestedQuantifier(pattern);
    if (risky !== null) {
      compiled = `Regular expression "${pattern}" is too complex: ${risky}`;
    } else {
      try {
        compiled = new RegExp(pattern, 'g');
      } catch (e) {
        compiled = `Invalid regular expression "${pattern}": ${e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : 'syntax error'}`;
      }
    }
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, compiled);
  }
  if (typeof compiled !== 'string') compiled.lastIndex = 0;
  return compiled;
}

function findNestedQuantifier(pattern: string): string | null {
  // One frame per open group: did anything inside it repeat?
  const groups: boolean[] = [false];
  // Whether the atom just read is a group containing a repetition.
  let lastAtomRepeats = false;
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === '\\') {
      i += 2;
      lastAtomRepeats = false;
      continue;
    }
    if (ch === '[') {
      i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      i++;
      lastAtomRepeats = false;
      continue;
    }
    if (ch === '(') {
      groups.push(false);
      i++;
      lastAtomRepeats = false;
      continue;
    }
    if (ch === ')') {
      const inner = groups.length > 1 ? (groups.pop() ?? false) : false;
      groups[groups.length - 1] = groups[groups.length - 1] || inner;
      lastAtomRepeats = inner;
      i++;
      continue;
    }
    const quantifier = /^(?:[*+]|\{\d*,?\d*\})/.exec(pattern.slice(i, i + 20));
    if (quantifier !== null) {
      if (lastAtomRepeats) return 'a repeated group contains another repetition';
      groups[groups.length - 1] = true;
      i += quantifier[0].length;
      if (pattern[i] === '?') i++;
      lastAtomRepeats = false;
      continue;
    }
    if (ch === '?') {
      // An optional group is at most doubled, so it is not a risk on its own,
      // but it still counts as repetition for an enclosing quantified group.
      groups[groups.length - 1] = groups[groups.length - 1] || lastAtomRepeats;
      i++;
      continue;
    }
    lastAtomRepeats = false;
    i++;
  }
  return null;
}
