import {
  AdminIntegration,
  CreateIntegrationBody,
  IntegrationParams,
  IssuedIntegration,
  OAuthAuthorization,
  OAuthAuthorizationBody,
  SignInLink,
  UpdateIntegrationBody,
  WorkspaceUserParams,
} from '../schemas/admin.js';
import { presentIntegration, presentIssuedIntegration, presentOAuthAuthorization, presentSignInLink } from '../presenters/adminObjects.js';
import {
  changeIntegration,
  createIntegration,
  getIntegration,
  listIntegrationsPage,
  removeIntegration,
  rotateIntegrationSecret,
} from '../commands/admin/integrations.js';
import { createSignInLink } from '../commands/oauth/signIn.js';
import { authorizeWithoutBrowser } from '../commands/oauth/issueCode.js';
import { adminOperation, bodyOption, commaList, deletion, listing, pathOption, type AnyAdminOperation } from './adminOperation.js';

const integrationOption = pathOption('--integration <id>', 'integration_id');

/** Public integrations (server-wide) and the OAuth install flow's operator side (issue 27 items 1–3). */
export const INTEGRATION_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'POST',
    path: '/integrations',
    body: CreateIntegrationBody,
    response: IssuedIntegration,
    run: (ctx, { body }) => createIntegration(ctx, body),
    present: presentIssuedIntegration,
    cli: {
      name: 'create-integration',
      description: 'register a public integration and print its client secret (shown only once)',
      options: [
        bodyOption('--name <name>', 'name', { required: true }),
        bodyOption('--redirect-uris <list>', 'redirect_uris', { required: true, description: 'comma-separated', convert: commaList }),
        bodyOption('--capabilities <list>', 'capabilities', {
          description: 'comma-separated',
          defaultValue: 'read_content,update_content,insert_content,user_info_with_email',
          convert: commaList,
        }),
        bodyOption('--webhook-url <url>', 'webhook_url'),
      ],
    },
  }),
  listing({
    path: '/integrations',
    item: AdminIntegration,
    load: (ctx, _params, page) => listIntegrationsPage(ctx, page),
    presentItem: presentIntegration,
    cli: { name: 'list-integrations', description: 'list the public integrations', options: [] },
  }),
  adminOperation({
    method: 'GET',
    path: '/integrations/:integration_id',
    params: IntegrationParams,
    response: AdminIntegration,
    run: (ctx, { params }) => getIntegration(ctx, params.integration_id),
    present: presentIntegration,
    cli: { name: 'get-integration', description: 'show one integration (never its secret)', options: [integrationOption] },
  }),
  adminOperation({
    method: 'PATCH',
    path: '/integrations/:integration_id',
    params: IntegrationParams,
    body: UpdateIntegrationBody,
    response: AdminIntegration,
    run: (ctx, { params, body }) => changeIntegration(ctx, params.integration_id, body),
    present: presentIntegration,
    cli: {
      name: 'update-integration',
      description: 'rename an integration or replace its redirect URIs, capabilities or webhook URL',
      options: [
        integrationOption,
        bodyOption('--name <name>', 'name'),
        bodyOption('--redirect-uris <list>', 'redirect_uris', { description: 'comma-separated; replaces the current list', convert: commaList }),
        bodyOption('--capabilities <list>', 'capabilities', { description: 'comma-separated; replaces the current list', convert: commaList }),
        bodyOption('--webhook-url <url>', 'webhook_url'),
      ],
    },
  }),
  adminOperation({
    method: 'POST',
    path: '/integrations/:integration_id/secret',
    params: IntegrationParams,
    response: IssuedIntegration,
    run: (ctx, { params }) => rotateIntegrationSecret(ctx, params.integration_id),
    present: presentIssuedIntegration,
    cli: {
      name: 'rotate-integration-secret',
      description: 'give an integration a new client secret and print it (the old one stops working)',
      options: [integrationOption],
    },
  }),
  deletion({
    path: '/integrations/:integration_id',
    params: IntegrationParams,
    object: 'integration',
    idParam: 'integration_id',
    remove: (ctx, params) => removeIntegration(ctx, params.integration_id),
    cli: { name: 'delete-integration', description: 'delete an integration: every connection installed from it is revoked', options: [integrationOption] },
  }),
  adminOperation({
    method: 'POST',
    path: '/workspaces/:workspace_id/users/:user_id/sign_in_link',
    params: WorkspaceUserParams,
    response: SignInLink,
    run: (ctx, { params }) => createSignInLink(ctx, params.workspace_id, params.user_id),
    present: presentSignInLink,
    cli: {
      name: 'create-sign-in-link',
      description: 'print a one-time link that signs a browser in as this person (for the OAuth consent page)',
      options: [pathOption('--workspace <id>', 'workspace_id'), pathOption('--user <id>', 'user_id')],
    },
  }),
  adminOperation({
    method: 'POST',
    path: '/oauth/authorizations',
    body: OAuthAuthorizationBody,
    response: OAuthAuthorization,
    run: (ctx, { body }) => authorizeWithoutBrowser(ctx, body),
    present: presentOAuthAuthorization,
    cli: {
      name: 'authorize-integration',
      description: "give an integration a person's approval without a browser and print the code to exchange",
      options: [
        bodyOption('--integration <id>', 'integration_id', { required: true }),
        bodyOption('--user <id>', 'user_id', { required: true }),
        bodyOption('--pages <list>', 'page_ids', { description: 'comma-separated page ids to share', defaultValue: '', convert: commaList }),
        bodyOption('--redirect-uri <uri>', 'redirect_uri'),
        bodyOption('--state <state>', 'state'),
      ],
    },
  }),
];
