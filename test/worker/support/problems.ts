/** Assertions on problem+json responses (RFC 9457), the one error shape of the API. */
import { expect } from "vitest";

export async function expectProblem(
  res: Response,
  status: number,
  code: string,
): Promise<{ detail: string; request_id: string }> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const body = (await res.json()) as { code: string; status: number; detail: string; request_id: string };
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(body.request_id).toBe(res.headers.get("request-id"));
  return body;
}
