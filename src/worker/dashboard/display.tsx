/**
 * How the dashboard shows keys, times and scopes. A key is only ever shown by its prefix and last
 * four characters (`sk_live_…abcd`): the secret exists in a response once, at creation.
 */
import { KEY_PREFIX_OF, type KeyMode } from "../../common/auth/api-key";
import { SCOPE_WORDS } from "../auth/oauth/scope-words";
import { DEFAULT_KEY_SCOPES, isScope, SCOPES } from "../../common/auth/scopes";

export function maskedKey(key: { mode: KeyMode; last4: string }): string {
  return `${KEY_PREFIX_OF[key.mode]}…${key.last4}`;
}

const DATE_TIME = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

/** "20 Nov 2026, 09:30 UTC" in a `<time>` element, or the fallback text when there is no time. */
export function When(props: { at: string | number | null; fallback?: string }) {
  if (props.at === null) return <span class="muted">{props.fallback ?? "Never"}</span>;
  const date = typeof props.at === "number" ? new Date(props.at * 1000) : new Date(props.at);
  if (Number.isNaN(date.getTime())) return <span>{String(props.at)}</span>;
  return <time datetime={date.toISOString()}>{`${DATE_TIME.format(date)} UTC`}</time>;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

/** A key's scopes in one phrase: the two usual sets by name, anything else listed. */
export function scopeSummary(scopes: readonly string[]): string {
  if (sameSet(scopes, SCOPES)) return "All scopes, including admin";
  if (sameSet(scopes, DEFAULT_KEY_SCOPES)) return "All scopes except admin";
  return scopes.join(", ");
}

/** Each scope in plain words with its name, as the consent page lists them. */
export function ScopeList(props: { scopes: readonly string[] }) {
  return (
    <ul class="scope-list">
      {props.scopes.map((scope) => (
        <li>
          {isScope(scope) ? SCOPE_WORDS[scope] : scope} <code>{scope}</code>
        </li>
      ))}
    </ul>
  );
}

/** A field's error, next to it; tie it to the field with `aria-describedby`. */
export function FieldError(props: { id: string; message: string | undefined }) {
  return props.message ? (
    <p id={props.id} class="field-error">
      {props.message}
    </p>
  ) : null;
}

export const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(" ") || undefined;
