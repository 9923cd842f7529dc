/**
 * Streamed and body-less responses, and those a library makes (the OAuth provider's), are plain
 * `Response`s; zod-openapi types only c.json/c.text results, so this is where the handler's plain
 * Response meets the route's declared responses.
 */
export const plainResponse = (response: Response) => response as never;
