/**
 * The account's keys as a table: name, the key as `sk_live_…abcd`, mode, scopes, created, last
 * used, status, and a Revoke link (to a confirmation page) on active keys. At phone width the
 * stylesheet turns each row into a card labelled by `data-label`.
 */
import type { KeyView } from "../auth/account-views";
import { revokeKeyPath } from "./context";
import { maskedKey, scopeSummary, When } from "./display";

/** Active keys first (oldest first), then revoked ones (most recently revoked first). */
export function keysInDisplayOrder(keys: readonly KeyView[]): KeyView[] {
  const active = keys.filter((key) => key.status === "active");
  const revoked = keys
    .filter((key) => key.status === "revoked")
    .sort((a, b) => (b.revoked_at ?? "").localeCompare(a.revoked_at ?? ""));
  return [...active, ...revoked];
}

export const keyTitle = (key: KeyView) => (key.name ? `“${key.name}” (${maskedKey(key)})` : maskedKey(key));

function KeyRow(props: { keyView: KeyView }) {
  const key = props.keyView;
  return (
    <tr class={key.status === "revoked" ? "revoked" : undefined}>
      <td data-label="Name">{key.name ?? <span class="muted">Unnamed</span>}</td>
      <td data-label="Key">
        <code class="key">{maskedKey(key)}</code>
      </td>
      <td data-label="Mode">
        <span class={`badge mode-${key.mode}`}>{key.mode}</span>
      </td>
      <td data-label="Scopes">{scopeSummary(key.scopes)}</td>
      <td data-label="Created">
        <When at={key.created_at} />
      </td>
      <td data-label="Last used">
        <When at={key.last_used_at} />
      </td>
      <td data-label="Status">
        {key.status === "active" ? (
          <span class="badge status-active">Active</span>
        ) : (
          <>
            <span class="badge status-revoked">Revoked</span> <When at={key.revoked_at} fallback="" />
          </>
        )}
      </td>
      <td data-label="Actions">
        {key.status === "active" ? (
          <a class="button danger" href={revokeKeyPath(key.id)}>
            Revoke<span class="visually-hidden"> key {keyTitle(key)}</span>
          </a>
        ) : null}
      </td>
    </tr>
  );
}

export function KeyTable(props: { keys: readonly KeyView[] }) {
  if (props.keys.length === 0) return <p class="empty">You have no API keys yet. Generate your first one below.</p>;
  return (
    <table class="cards">
      <caption class="visually-hidden">Your API keys</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Key</th>
          <th scope="col">Mode</th>
          <th scope="col">Scopes</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">Status</th>
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {keysInDisplayOrder(props.keys).map((key) => (
          <KeyRow keyView={key} />
        ))}
      </tbody>
    </table>
  );
}
