import type { ComponentType } from 'preact';
import { WorkspacesPanel } from './Workspaces.tsx';
import { ContentPanel } from './Content.tsx';
import { RequestLogPanel } from './RequestLog.tsx';
import { FaultsPanel } from './Faults.tsx';
import { ProcessingPanel } from './Processing.tsx';
import { FixturesPanel } from './Fixtures.tsx';
import { WebhooksPanel } from './Webhooks.tsx';
import { IntegrationsPanel } from './Integrations.tsx';

export interface Panel {
  /** The first part of the route: `#/<id>/…`. */
  id: string;
  label: string;
  /** Receives the rest of the route. */
  component: ComponentType<{ route: string[] }>;
}

/**
 * The console's panels, in the order of its navigation. A panel is one module under panels/ and one
 * line here (docs/architecture.md, "A console panel").
 */
export const PANELS: readonly Panel[] = [
  { id: 'workspaces', label: 'Workspaces', component: WorkspacesPanel },
  { id: 'content', label: 'Content', component: ContentPanel },
  { id: 'requests', label: 'Request log', component: RequestLogPanel },
  { id: 'faults', label: 'Faults', component: FaultsPanel },
  { id: 'processing', label: 'Meeting notes', component: ProcessingPanel },
  { id: 'fixtures', label: 'Fixtures', component: FixturesPanel },
  { id: 'webhooks', label: 'Webhooks', component: WebhooksPanel },
  { id: 'integrations', label: 'Integrations', component: IntegrationsPanel },
];
