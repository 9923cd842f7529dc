/**
 * Fakes for the client package's unit tests: a clock that records its sleeps instead of sleeping,
 * and a server that answers from a script. Real HTTP is in the worker and e2e tests.
 */
import { createCatalogHttp, type CatalogHttpOptions } from "../src/http-client.js";

export function fakeClock(startMs = Date.UTC(2026, 0, 1), onSleep: () => void = () => {}) {
  let now = startMs;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
      onSleep();
    },
  };
}

export const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ code, detail: `${code} detail`, status }), {
    status,
    headers: { "Content-Type": "application/problem+json", ...headers },
  });

/** A server that answers from a script, recording what it was sent. */
export function scripted(answers: (Response | Error | ((request: Request) => Promise<Response>))[]) {
  const requests: Request[] = [];
  return {
    requests,
    fetch: async (request: Request) => {
      requests.push(request);
      const answer = answers.shift();
      if (!answer) throw new Error("script exhausted");
      if (answer instanceof Error) throw answer;
      return answer instanceof Response ? answer : answer(request);
    },
  };
}

export function client(answers: Parameters<typeof scripted>[0], options: Partial<CatalogHttpOptions> = {}) {
  const server = scripted(answers);
  const clock = fakeClock();
  const http = createCatalogHttp({ fetch: server.fetch, clock, random: () => 0.5, ...options });
  return { http, server, clock };
}
