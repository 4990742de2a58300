import { Api, ApiProblem } from '../api.ts';
import { clear, h } from '../dom.ts';

/** Sign-in: the key is kept in this tab's sessionStorage only, and checked on the free account call. */
export function signInPage(main: HTMLElement, costs: Api['costs'], done: (api: Api) => void): void {
  const input = h('input', { id: 'key', name: 'key', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, 'aria-describedby': 'key-help' });
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title' }, 'Sign in'),
    h('label', { for: 'key' }, 'API key'),
    input,
    h('p', { id: 'key-help', class: 'muted' }, 'Your key (pi_live_…) is kept for this browser tab only and sent to this service alone. Signing in is free.'),
    h('button', { type: 'submit' }, 'Sign in'),
    error,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    const api = new Api(input.value.trim(), costs);
    try {
      await api.get('/account'); // free: checks the key
      Api.remember(api.key);
      done(api);
    } catch (err) {
      error.textContent = err instanceof ApiProblem && err.status === 401 ? 'That key is not valid (unknown, revoked or mistyped).' : `Could not sign in: ${(err as Error).message}`;
    }
  });
  clear(main, form);
  input.focus();
}
