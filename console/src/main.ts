/**
 * The console: a page for people over the public API, with the customer's own key.
 * Routes live in the URL's fragment so a page can be shared: #/property/<uprn>,
 * #/area/<code>, #/account, #/ (search).
 */
import { Api, loadCosts, status } from './api.ts';
import type { Ctx } from './app.ts';
import { clear, h } from './dom.ts';
import { credits } from './format.ts';
import { accountPage } from './pages/account.ts';
import { areaPage } from './pages/area.ts';
import { propertyPage } from './pages/property.ts';
import { searchPage } from './pages/search.ts';
import { signInPage } from './pages/signin.ts';

const main = document.getElementById('main')!;
const nav = document.getElementById('nav')!;
const spent = document.getElementById('spent')!;

async function boot(): Promise<void> {
  const costs = await loadCosts();
  const ctx: Ctx = { api: undefined as unknown as Api, main, go: (hash) => (location.hash = hash), chosen: new Set() };
  const showSpent = () => (spent.textContent = `Spent in this tab: ${credits(ctx.api.spent)}`);
  const signedIn = (api: Api) => {
    ctx.api = api;
    api.onSpend(showSpent);
    showSpent();
    clear(
      nav,
      h('a', { href: '#/' }, 'Search'),
      h('a', { href: '#/account' }, 'Account'),
      h('button', { type: 'button', class: 'link', onclick: () => { Api.remember(null); location.hash = '#/'; location.reload(); } }, 'Sign out'),
    );
    void route();
  };
  const route = async () => {
    if (!ctx.api) return;
    // A rotated key replaces the client: keep the header's counter on the current one.
    const before = ctx.api;
    const [, page, arg] = (location.hash.replace(/^#/, '') || '/').split('/');
    status('');
    try {
      if (page === 'property' && arg) await propertyPage(ctx, decodeURIComponent(arg));
      else if (page === 'area' && arg) areaPage(ctx, decodeURIComponent(arg).toUpperCase());
      else if (page === 'account') await accountPage(ctx);
      else searchPage(ctx);
    } catch (err) {
      clear(main, h('h1', {}, 'Something went wrong'), h('p', { class: 'error', role: 'alert' }, (err as Error).message));
    }
    if (ctx.api !== before) ctx.api.onSpend(showSpent);
    const heading = main.querySelector('h1');
    if (heading) document.title = `${heading.textContent} · Property Intelligence`;
    main.dataset.ready = page || 'search';
  };
  window.addEventListener('hashchange', () => void route());
  const key = Api.stored();
  if (key) signedIn(new Api(key, costs));
  else signInPage(main, costs, signedIn);
  performance.mark('console-interactive');
  document.body.dataset.interactive = 'true';
}

void boot().catch((err) => clear(main, h('h1', {}, 'The console could not start'), h('p', { role: 'alert' }, String(err))));
