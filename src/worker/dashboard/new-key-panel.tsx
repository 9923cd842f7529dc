/**
 * The one place a key's secret is ever rendered: the response to the "Generate a key" post
 * (`Cache-Control: no-store`, never a GET URL). A read-only field holds it so it can be selected
 * by hand; the Copy button appears only when the copy script runs (progressive enhancement).
 */
import type { KeyView } from "../auth/account-views";
import { DASHBOARD_PATHS } from "./context";
import { maskedKey } from "./display";

export const SECRET_FIELD_ID = "new-key-secret";

/** A secret shown once: a read-only field to select by hand, and a Copy button when the copy script runs. */
export function SecretField(props: { id: string; label: string; value: string }) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <div class="copy-row">
        <input
          id={props.id}
          class="secret"
          type="text"
          readonly
          value={props.value}
          autocomplete="off"
          spellcheck={false}
        />
        <button type="button" class="secondary" data-copy-target={props.id} data-copy-status="copy-status" hidden>
          Copy
        </button>
      </div>
      <p id="copy-status" class="hint" role="status"></p>
    </>
  );
}

export function NewKeyPanel(props: { keyView: KeyView; secret: string; origin: string }) {
  const key = props.keyView;
  return (
    <section class="new-key" aria-labelledby="new-key-heading">
      <h2 id="new-key-heading">Your new key{key.name ? ` “${key.name}”` : ""} is ready</h2>
      <p class="warning">
        <strong>Copy it now: this is the only time it is shown.</strong> We store only a fingerprint of it, so nobody
        can show it to you again. If you lose it, revoke it and generate a new one. In the list below it appears as{" "}
        <code>{maskedKey(key)}</code>.
      </p>
      <SecretField id={SECRET_FIELD_ID} label={`Secret ${key.mode} key`} value={props.secret} />
      <p>Send it as a bearer token on every request, for example:</p>
      {/* One argument a line, as a shell continues it: narrow screens scroll the block rather than break a word. */}
      {/* biome-ignore lint/a11y/useSemanticElements: a scrolling <pre> must be a focusable, named region (axe scrollable-region-focusable); a <section> around it would not scroll. */}
      <pre class="command" tabindex={0} role="region" aria-label="Example request">
        <code>{`curl -H "Authorization: Bearer $CATALOG_API_KEY" \\
  ${props.origin}/v1/catalog`}</code>
      </pre>
      <p class="hint">
        Keep it out of source code: put it in your deployment's secret store. Done?{" "}
        <a href={DASHBOARD_PATHS.keys}>Hide the key</a>.
      </p>
    </section>
  );
}
