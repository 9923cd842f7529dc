/** Helpers of the /v2/customer tests (customer.happy and customer.error). */
import { expect } from "vitest";
import { bearer, call } from "./auth-fixtures";
import { type CustomerView, json } from "./orders-support";
import { expectProblem } from "./support/problems";

/** PATCH /v2/customer with a merge patch (RFC 7396). */
export const patch = (secret: string, body: unknown, headers: Record<string, string> = {}) =>
  call("/v2/customer", json(secret, "PATCH", body, { "Content-Type": "application/merge-patch+json", ...headers }));

interface ValidationProblem {
  detail: string;
  errors: { path: string; message: string; code: string }[];
}

/** The 400 bad_request of a refused change, whose errors name exactly `paths` (in any order). */
export async function expectInvalidFields(res: Response, paths: string[]): Promise<ValidationProblem> {
  const problem = (await expectProblem(res, 400, "bad_request")) as unknown as ValidationProblem;
  expect(problem.errors.map((e) => e.path).sort()).toEqual([...paths].sort());
  return problem;
}

export const profileOf = async (secret: string) =>
  (await call("/v2/customer", { headers: bearer(secret) })).json<CustomerView>();
