/**
 * The profile form of the dashboard, as data: the fields a browser posts, the profile they make
 * (the same CustomerFields schema as PATCH /v2/customer checks), and each problem tied to its field.
 * An empty phone removes it; an address with every line empty removes it. Pure.
 */
import { CustomerFields, type CustomerView } from "../customers/schemas";

export const PROFILE_FIELDS = [
  "name",
  "email",
  "phone",
  "line1",
  "line2",
  "city",
  "postal_code",
  "country",
  "language",
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileFormValues = Record<ProfileField, string> & { marketing_emails: boolean };
export type ProfileFormErrors = Partial<Record<ProfileField | "marketing_emails", string>>;

const ADDRESS_FIELDS = ["line1", "line2", "city", "postal_code", "country"] as const;

export function profileFormValues(profile: CustomerView): ProfileFormValues {
  const address = profile.shipping_address;
  return {
    name: profile.name,
    email: profile.email,
    phone: profile.phone ?? "",
    line1: address?.line1 ?? "",
    line2: address?.line2 ?? "",
    city: address?.city ?? "",
    postal_code: address?.postal_code ?? "",
    country: address?.country ?? "",
    language: profile.preferences.language,
    marketing_emails: profile.preferences.marketing_emails,
  };
}

export function formValuesOf(form: Record<string, unknown>): ProfileFormValues {
  const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string).trim() : "");
  const values = Object.fromEntries(PROFILE_FIELDS.map((field) => [field, text(field)])) as Record<
    ProfileField,
    string
  >;
  return { ...values, country: values.country.toUpperCase(), marketing_emails: form.marketing_emails === "yes" };
}

/** The profile the form describes, or the problem of each field. */
export function profileOf(
  values: ProfileFormValues,
): { ok: true; fields: CustomerFields } | { ok: false; errors: ProfileFormErrors } {
  const hasAddress = ADDRESS_FIELDS.some((field) => values[field] !== "");
  const parsed = CustomerFields.safeParse({
    name: values.name,
    email: values.email,
    phone: values.phone || null,
    shipping_address: hasAddress
      ? {
          line1: values.line1,
          line2: values.line2 || null,
          city: values.city,
          postal_code: values.postal_code,
          country: values.country,
        }
      : null,
    preferences: { marketing_emails: values.marketing_emails, language: values.language },
  });
  if (parsed.success) return { ok: true, fields: parsed.data };
  const errors: ProfileFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path.at(-1)) as keyof ProfileFormErrors;
    errors[field] ??= issue.code === "too_small" ? "Required." : issue.message;
  }
  return { ok: false, errors };
}
