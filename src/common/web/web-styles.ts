/**
 * The CSS of the server-rendered pages, on its own so that a page served elsewhere can look the
 * same without importing the worker's page code (the OAuth demo's callback page, in Node).
 */
export const WEB_STYLES = `
:root { color-scheme: light dark; --accent: #2f5bd3; --muted: #666; --border: #ccc; --danger: #b3261e; }
@media (prefers-color-scheme: dark) { :root { --muted: #b0b0b0; --border: #555; } body { background: #16181d; color: #eceff4; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
header { padding: 0.75rem 1.5rem; font-weight: 600; border-bottom: 1px solid var(--border); }
main { max-width: 34rem; margin: 2rem auto; padding: 0 1.5rem; }
h1 { font-size: 1.4rem; line-height: 1.3; }
label { display: block; margin: 1rem 0 0.25rem; font-weight: 600; }
input[type=email], input[type=password] { width: 100%; padding: 0.6rem; font: inherit; border: 1px solid var(--border); border-radius: 6px; }
button { font: inherit; padding: 0.6rem 1.2rem; border-radius: 6px; border: 1px solid var(--accent); cursor: pointer; }
button.primary { background: var(--accent); color: #fff; }
button.secondary { background: transparent; color: inherit; border-color: var(--border); }
button.link { border: none; padding: 0; background: none; color: var(--accent); text-decoration: underline; }
.actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
.scopes { padding-left: 1.2rem; }
.scopes code, .muted { color: var(--muted); font-size: 0.9rem; }
.notice { padding: 0.75rem 1rem; border-left: 4px solid var(--accent); background: rgba(47, 91, 211, 0.08); }
.error { padding: 0.75rem 1rem; border-left: 4px solid var(--danger); background: rgba(179, 38, 30, 0.08); }
.inline { display: inline; }
pre.wrap { white-space: pre-wrap; overflow-wrap: anywhere; padding: 0.75rem 1rem; border: 1px solid var(--border); border-radius: 6px; }
`;
