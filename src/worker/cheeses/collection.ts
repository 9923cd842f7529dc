/**
 * The cheese collection: a small fixed file, data/cheeses.json, bundled into the worker and checked
 * against the schema once at load, so a bad edit fails the tests, not a request. `/v2/cheeses`
 * shows it and orders price their lines from it. Money is integer minor units (cents, pence).
 */
import { z } from "@hono/zod-openapi";
import collection from "../../../data/cheeses.json";

export const CURRENCIES = ["eur", "gbp"] as const;
export const CurrencySchema = z
  .enum(CURRENCIES)
  .openapi({ description: "ISO 4217 currency code, lowercase.", example: "eur" });

export const Cheese = z
  .object({
    id: z.string().openapi({ example: "chs_comte" }),
    name: z.string().openapi({ example: "Comté" }),
    country: z.string().length(2).openapi({ description: "ISO 3166-1 alpha-2 country of origin", example: "FR" }),
    milk: z.enum(["cow", "sheep", "goat", "buffalo"]),
    texture: z.enum(["soft", "semi-hard", "hard", "blue", "brined"]),
    aged_months: z.int().min(0),
    unit_amount: z
      .int()
      .min(1)
      .openapi({ description: "Price of one unit in the currency's minor unit (cents).", example: 2450 }),
    currency: CurrencySchema,
  })
  .openapi("Cheese");
export type Cheese = z.infer<typeof Cheese>;

export const CheeseList = z.object({ data: z.array(Cheese) }).openapi("CheeseList");
export const CHEESES = CheeseList.parse({ data: collection });

const BY_ID = new Map(CHEESES.data.map((cheese) => [cheese.id, cheese]));

/** The cheese with this id, or undefined. */
export const cheeseById = (id: string): Cheese | undefined => BY_ID.get(id);
