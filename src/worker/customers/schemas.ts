/**
 * The customer profile: what `GET /v2/customer` shows and `PATCH /v2/customer` changes. One zod
 * definition of each field's rule serves the route's validation, /openapi.json and the stored rows.
 */
import { z } from "@hono/zod-openapi";
import { iso31661 } from "iso-3166";

const COUNTRY_CODES = new Set(iso31661.map((country) => country.alpha2));

const text = (max: number) => z.string().trim().min(1).max(max);

export const CountrySchema = z
  .string()
  .refine((code) => COUNTRY_CODES.has(code), "must be an ISO 3166-1 alpha-2 country code in capitals, e.g. FR")
  .openapi({ description: "ISO 3166-1 alpha-2 country code.", example: "FR" });

export const Address = z
  .strictObject({
    line1: text(200).openapi({ example: "12 rue des Fromages" }),
    line2: text(200).nullable().default(null),
    city: text(100).openapi({ example: "Lyon" }),
    postal_code: text(16)
      .regex(/^[0-9A-Za-z][0-9A-Za-z -]*$/, "letters, digits, spaces and hyphens only")
      .openapi({ example: "69002" }),
    country: CountrySchema,
  })
  .openapi("Address");
export type Address = z.infer<typeof Address>;

const NameSchema = text(100).openapi({ example: "Ada Lovelace" });
const EmailSchema = z.email().max(254).openapi({ example: "ada@example.com" });
const PhoneSchema = z
  .string()
  .regex(/^\+[1-9][0-9]{1,14}$/, "must be an E.164 number: + then 2 to 15 digits, e.g. +41446681800")
  .openapi({ example: "+41446681800" });
const LanguageSchema = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, "must be a BCP 47 language tag such as en or fr-CH")
  .openapi({ example: "fr-CH" });

export const Preferences = z
  .strictObject({
    marketing_emails: z.boolean().default(false).openapi({ description: "Whether we may send offers by email." }),
    language: LanguageSchema.default("en"),
  })
  .openapi("CustomerPreferences");

/** What a customer can change: the stored profile, checked whole after each patch. */
export const CustomerFields = z.strictObject({
  name: NameSchema,
  email: EmailSchema,
  phone: PhoneSchema.nullable().default(null),
  shipping_address: Address.nullable().default(null),
  preferences: Preferences.default({ marketing_emails: false, language: "en" }),
});
export type CustomerFields = z.infer<typeof CustomerFields>;

export const CustomerView = CustomerFields.extend({
  id: z.string().openapi({ example: "cus_4Qb8mZ2cYw7LrT1sVx9k" }),
  object: z.literal("customer"),
  email: z.string().openapi({
    example: "ada@example.com",
    description: "The contact email, recorded as given and not verified; signing in keeps using the account's email.",
  }),
  created_at: z.string().openapi({ example: "2026-11-20T09:30:00.000Z" }),
  updated_at: z.string().openapi({ example: "2026-11-20T09:30:00.000Z" }),
  livemode: z.boolean().openapi({ description: "true on production, false on the sandbox." }),
}).openapi("Customer");
export type CustomerView = z.infer<typeof CustomerView>;

/**
 * A JSON merge patch of the profile (RFC 7396): a member replaces, `null` removes (phone,
 * shipping_address, line2), a nested object merges. Each field is checked here; the merged profile
 * is checked again whole (e.g. an address must end up with line1, city, postal_code and country).
 */
export const CustomerPatch = z
  .strictObject({
    name: NameSchema.optional(),
    email: EmailSchema.optional(),
    phone: PhoneSchema.nullable().optional(),
    shipping_address: z
      .strictObject({
        line1: Address.shape.line1.optional(),
        line2: text(200).nullable().optional(),
        city: Address.shape.city.optional(),
        postal_code: Address.shape.postal_code.optional(),
        country: CountrySchema.optional(),
      })
      .nullable()
      .optional(),
    preferences: z
      .strictObject({
        marketing_emails: z.boolean().optional(),
        language: LanguageSchema.optional(),
      })
      .optional(),
  })
  .openapi("CustomerPatch", {
    example: {
      phone: "+41446681800",
      shipping_address: { line1: "Bahnhofstrasse 1", city: "Zürich", postal_code: "8001", country: "CH" },
    },
  });
export type CustomerPatch = z.infer<typeof CustomerPatch>;
