/** One answer of the fake Cloudflare API (fake-cloudflare.ts): its v4 envelope, before JSON. */
export interface Reply {
  status: number;
  result?: unknown;
  resultInfo?: Record<string, number>;
  errors?: { code: number; message: string }[];
  /** A POST that changed nothing (a D1 query that only read): not one of the fake's writes(). */
  readOnly?: boolean;
}

export const ok = (result: unknown, resultInfo?: Reply["resultInfo"]): Reply => ({ status: 200, result, resultInfo });
export const fail = (status: number, code: number, message: string): Reply => ({ status, errors: [{ code, message }] });

export type Handler = (match: string[], url: URL, request: Request) => Reply | Promise<Reply>;
export interface Route {
  method: string;
  pattern: RegExp;
  /** The token permission the endpoint needs, as the dashboard names it; "Edit" includes "Read". */
  permission?: string;
  handle: Handler;
}

export function page(pageNumber: number, perPage: number, total = 1): Record<string, number> {
  return {
    page: pageNumber,
    per_page: perPage,
    count: Math.max(0, Math.min(perPage, total - (pageNumber - 1) * perPage)),
    total_count: total,
    total_pages: Math.ceil(total / perPage),
  };
}
