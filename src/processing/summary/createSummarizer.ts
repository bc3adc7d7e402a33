import { extractiveSummarizer } from './extractiveSummarizer.js';
import { openaiSummarizer, type OpenAiSummarySettings } from './openaiSummarizer.js';
import type { Summarizer } from './summarizer.js';

/** The summary engine FOLIO_SUMMARIZER names (src/config.ts reads the settings). */
export interface SummarySettings {
  engine: 'local' | 'openai';
  openai: OpenAiSummarySettings;
}

export function createSummarizer(settings: SummarySettings): Summarizer {
  return settings.engine === 'openai' ? openaiSummarizer(settings.openai) : extractiveSummarizer;
}
