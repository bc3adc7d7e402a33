import type { ConsentView } from '../domain/oauth/oauth.js';
import { AUTHORIZE_PATH } from '../domain/oauth/oauth.js';

/**
 * The browser pages of the install flow: plain server-rendered HTML, every value escaped. They
 * load nothing from elsewhere and run no script, so the Content-Security-Policy the routes send
 * can forbid both.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Folio</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}li{list-style:none}code{background:#f3f3f3;padding:0 .2rem}button{margin-right:.5rem;padding:.4rem 1rem}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}

const CAPABILITY_LABELS: Record<string, string> = {
  read_content: 'Read content',
  update_content: 'Update content',
  insert_content: 'Insert content',
  read_comments: 'Read comments',
  insert_comments: 'Insert comments',
  no_user_info: 'No user information',
  user_info_without_email: 'Read user information without e-mail addresses',
  user_info_with_email: 'Read user information including e-mail addresses',
};

const hidden = (name: string, value: string | undefined) => (value === undefined ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`);

export function renderConsentPage(view: Exclude<ConsentView, { kind: 'redirect' }>): string {
  if (view.kind === 'sign_in') {
    return page(
      `Sign in to connect ${view.integrationName}`,
      `<p id="sign-in-needed">You are not signed in. Ask the operator of this Folio server for a sign-in link
(<code>folio admin create-sign-in-link --workspace &lt;id&gt; --user &lt;id&gt;</code>), then open it in this browser:
it brings you back here. To come back from another browser, add <code>&amp;return_to=</code> and this value to the link:</p>
<p><code id="return-to">${escapeHtml(encodeURIComponent(view.returnTo))}</code></p>`,
    );
  }
  const { integration, workspace, user, request } = view;
  const capabilities = (JSON.parse(integration.capabilities) as string[]).map((c) => `<li>${escapeHtml(CAPABILITY_LABELS[c] ?? c)}</li>`).join('\n');
  const pages =
    view.pages.length === 0
      ? '<p>This workspace has no top-level pages to share.</p>'
      : `<ul id="pages">\n${view.pages
          .map(
            (p) =>
              `<li><label><input type="checkbox" name="page_ids" value="${escapeHtml(p.id)}"> ${escapeHtml(p.title || 'Untitled')}${p.object === 'database' ? ' (database)' : ''}</label></li>`,
          )
          .join('\n')}\n</ul>`;
  return page(
    `${integration.name} wants to connect to ${workspace.name}`,
    `<p>Signed in as <strong id="signed-in-as">${escapeHtml(user.name ?? user.email ?? user.id)}</strong>.</p>
<p>${escapeHtml(integration.name)} will be able to:</p>
<ul id="capabilities">
${capabilities}
</ul>
<form method="post" action="${AUTHORIZE_PATH}">
${hidden('client_id', request.client_id)}${hidden('redirect_uri', request.redirect_uri)}${hidden('response_type', request.response_type)}${hidden('owner', request.owner)}${hidden('state', request.state)}${hidden('csrf_token', view.csrfToken)}
<p>Choose the pages it may see (and everything inside them):</p>
${pages}
<p><button type="submit" name="decision" value="approve" id="approve">Allow access</button><button type="submit" name="decision" value="deny" id="deny">Cancel</button></p>
</form>`,
  );
}

export function renderSignedInPage(name: string): string {
  return page('Signed in', `<p>You are signed in as <strong>${escapeHtml(name)}</strong>. Go back to the integration's authorization link to continue.</p>`);
}

export function renderErrorPage(title: string, message: string): string {
  return page(title, `<p id="error">${escapeHtml(message)}</p>`);
}
