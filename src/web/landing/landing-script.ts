/** Per landing path: the chunks to preload (URLs) and the /api/v1 GETs to start. */
export type LandingAssets = Record<string, { modules: readonly string[]; data: readonly string[] }>;

/**
 * The classic script index.html runs while it is read: it asks for the session (every page checks
 * it) and for the landing page's data, leaving the answers for src/web/lib/early-requests.ts, and
 * adds a modulepreload link for each chunk the page loads, so that they are fetched beside the
 * entry's rather than once it has run. Plain ES5 with no dependency: it runs before any module.
 */
export function landingScript(landings: LandingAssets): string {
  return `(function () {
  var landings = ${JSON.stringify(landings)};
  var landing = Object.prototype.hasOwnProperty.call(landings, location.pathname) ? landings[location.pathname] : { modules: [], data: [] };
  var early = {};
  ['/session'].concat(landing.data).forEach(function (path) {
    early[path] = fetch('/api/v1' + path, { credentials: 'same-origin', headers: { accept: 'application/json' } }).catch(function () {
      return null;
    });
  });
  globalThis.__voxlineEarly = early;
  landing.modules.forEach(function (href) {
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.appendChild(link);
  });
})();`;
}
