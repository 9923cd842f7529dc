/**
 * Size bounds on what dynamic client registration (RFC 7591) stores: the library keeps every
 * display string and URI of the metadata as sent, so an anonymous caller could store a
 * 60,000-character `client_name` and show it on the consent page. Each problem names its field.
 * Lengths are counted in characters (code points); a value of the wrong type is the library's
 * to refuse.
 */

export const MAX_CLIENT_NAME_CHARS = 200;
export const MAX_URI_CHARS = 2000;
/** RFC 5321 §4.5.3.1.3: a mailbox path is at most 256 octets, so an address at most 254. */
const MAX_CONTACT_CHARS = 254;
export const MAX_LIST_ENTRIES = 10;
/** RFC 5646 §4.4.1: 35 characters hold every language tag in practical use. */
const MAX_LANGUAGE_TAG_CHARS = 35;

const URI_FIELDS = ["client_uri", "logo_uri", "policy_uri", "tos_uri", "jwks_uri"];
const LIST_FIELDS = ["redirect_uris", "contacts", "grant_types", "response_types"];
/** The fields the library also stores per language, as `field#tag` (RFC 7591 §2.2). */
const LOCALIZED_FIELDS = new Set(["client_name", "client_uri", "logo_uri", "tos_uri", "policy_uri"]);

const characters = (text: string) => [...text].length;

function tooLong(field: string, value: unknown, max: number): string | null {
  if (typeof value !== "string" || characters(value) <= max) return null;
  return `${field}: at most ${max} characters (${characters(value)} given)`;
}

function listProblems(field: string, value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  if (value.length > MAX_LIST_ENTRIES) return [`at most ${MAX_LIST_ENTRIES} ${field}`];
  const max = field === "contacts" ? MAX_CONTACT_CHARS : MAX_URI_CHARS;
  return value.flatMap((entry, index) => tooLong(`${field}[${index}]`, entry, max) ?? []);
}

/** `field#tag` as the library reads it: a localized field, a `#`, a non-empty tag. */
function isLocalizedKey(key: string): boolean {
  const hash = key.indexOf("#");
  return hash > 0 && hash < key.length - 1 && LOCALIZED_FIELDS.has(key.slice(0, hash));
}

/** The language-tagged variants (`client_name#fr`), bounded in number, tag and value. */
function localizedProblems(metadata: Record<string, unknown>): string[] {
  const localized = Object.keys(metadata).filter(isLocalizedKey);
  if (localized.length > MAX_LIST_ENTRIES)
    return [`at most ${MAX_LIST_ENTRIES} language-tagged fields such as client_name#fr (${localized.length} given)`];
  return localized.flatMap((key) => {
    const field = key.slice(0, key.indexOf("#"));
    const tag = key.slice(field.length + 1);
    if (characters(tag) > MAX_LANGUAGE_TAG_CHARS)
      return [`${field}#…: a language tag has at most ${MAX_LANGUAGE_TAG_CHARS} characters`];
    return tooLong(key, metadata[key], field === "client_name" ? MAX_CLIENT_NAME_CHARS : MAX_URI_CHARS) ?? [];
  });
}

/** Every bound the metadata exceeds, each naming its field; empty when it fits. */
export function registrationBoundProblems(metadata: Record<string, unknown>): string[] {
  return [
    tooLong("client_name", metadata.client_name, MAX_CLIENT_NAME_CHARS),
    ...URI_FIELDS.map((field) => tooLong(field, metadata[field], MAX_URI_CHARS)),
    ...LIST_FIELDS.flatMap((field) => listProblems(field, metadata[field])),
    ...localizedProblems(metadata),
  ].filter((problem): problem is string => problem !== null);
}
