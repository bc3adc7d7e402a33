import { useState } from 'preact/hooks';
import { adminToken, ApiFailure, signIn } from './api.ts';
import { href, useRoute } from './router.ts';
import { PANELS } from './panels/index.ts';

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(token.trim());
      onSignedIn();
    } catch (failure) {
      setError(
        failure instanceof ApiFailure && failure.status === 401
          ? 'That admin token was refused. Use the token Folio printed at its first start (or FOLIO_ADMIN_TOKEN).'
          : (failure as Error).message,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <h1>Folio console</h1>
      <form onSubmit={submit}>
        <label for="admin-token">Admin token</label>
        <input id="admin-token" type="password" autoComplete="off" value={token} onInput={(e) => setToken(e.currentTarget.value)} required />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <p class="hint">
          <code>npm start</code> prints the admin token and keeps it in <code>admin-token</code> in its data directory (<code>.folio/</code> by default), unless{' '}
          <code>FOLIO_ADMIN_TOKEN</code> sets it. It stays in this browser tab only (session storage).
        </p>
      </form>
    </main>
  );
}

export function App() {
  const [signedIn, setSignedIn] = useState(() => adminToken.get() !== null);
  const route = useRoute();
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  const panel = PANELS.find((p) => p.id === route[0]) ?? PANELS[0];
  const Component = panel.component;
  return (
    <div class="shell">
      <header>
        <span class="brand">Folio console</span>
        <nav aria-label="Console">
          {PANELS.map((p) => (
            <a key={p.id} href={href(p.id)} aria-current={p === panel ? 'page' : undefined}>
              {p.label}
            </a>
          ))}
        </nav>
        <button
          type="button"
          class="signout"
          onClick={() => {
            adminToken.clear();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main">
        <Component route={route.slice(1)} />
      </main>
    </div>
  );
}
