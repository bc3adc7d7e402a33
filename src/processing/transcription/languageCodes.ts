import { MEETING_LANGUAGES } from './transcriber.js';

const names = new Intl.DisplayNames(['en'], { type: 'language' });

/** "French", "Chinese (Taiwan)": how a refusal names a language hint. */
export function languageName(code: string): string {
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

export function isMeetingLanguage(code: string): boolean {
  return (MEETING_LANGUAGES as readonly string[]).includes(code);
}

/**
 * The ISO 639-1 code whisper models take (whisper.cpp and OpenAI-compatible servers alike): the
 * script/region variants zh-CN and zh-TW are both `zh`; null for `auto`, which means "detect".
 */
export function whisperLanguage(code: string): string | null {
  if (code === 'auto') return null;
  return code.split('-')[0].toLowerCase();
}

/**
 * The code for what a server reports: OpenAI's verbose_json says `english`, others say `en`.
 * Unknown names are passed through as given rather than dropped.
 */
export function languageCode(reported: string | null | undefined): string | null {
  const value = reported?.trim().toLowerCase();
  if (!value) return null;
  if (/^[a-z]{2,3}$/.test(value)) return value;
  for (const code of MEETING_LANGUAGES) {
    if (code === 'auto') continue;
    const base = code.split('-')[0];
    if (languageName(base).toLowerCase() === value) return base;
  }
  return value;
}
