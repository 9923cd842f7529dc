/** One answer of the fake Cloudflare API (fake-cloudflare.ts): its v4 envelope, before JSON. */
export interface Reply {
  status: number;
  result?: unknown;
  resultInfo?: Record<string, number>;
  errors?: { code: number; message: string }[];
}

export const ok = (result: unknown, resultInfo?: Reply["resultInfo"]): Reply => ({ status: 200, result, resultInfo });
export const fail = (status: number, code: number, message: string): Reply => ({ status, errors: [{ code, message }] });
