import type { ComponentType } from 'preact';
import { WorkspacesPanel } from './Workspaces.tsx';
import { ContentPanel } from './Content.tsx';
import { RequestLogPanel } from './RequestLog.tsx';
import { FaultsPanel } from './Faults.tsx';
import { ProcessingPanel } from './Processing.tsx';

export interface Panel {
  /** The first part of the route: `#/<id>/…`. */
  id: string;
  label: string;
  /** Receives the rest of the route. */
  component: ComponentType<{ route: string[] }>;
}

/**
 * The console's panels, in the order of its navigation. A panel is one module under panels/ and one
 * line here (docs/architecture.md, "A console panel"). Fixtures (import, export, reset to seed),
 * integrations and webhooks (src/admin/fixtures.ts, integrations.ts, webhooks.ts) go at the end of this list.
 */
export const PANELS: readonly Panel[] = [
  { id: 'workspaces', label: 'Workspaces', component: WorkspacesPanel },
  { id: 'content', label: 'Content', component: ContentPanel },
  { id: 'requests', label: 'Request log', component: RequestLogPanel },
  { id: 'faults', label: 'Faults', component: FaultsPanel },
  { id: 'processing', label: 'Meeting notes', component: ProcessingPanel },
];
