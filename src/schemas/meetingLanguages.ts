/** The transcription hints the create request accepts (spec, "POST /v1/blocks/meeting_notes"); `auto` detects. */
export const MEETING_LANGUAGES = [
  'auto',
  'en',
  'zh-CN',
  'zh-TW',
  'es',
  'fr',
  'de',
  'ja',
  'ko',
  'pt',
  'ru',
  'th',
  'vi',
  'id',
  'da',
  'fi',
  'no',
  'nl',
  'it',
  'sv',
  'ar',
  'he',
  'pl',
] as const;

export type MeetingLanguage = (typeof MEETING_LANGUAGES)[number];
