/**
 * PKCE syntax (RFC 7636), checked where the library does not: at /oauth/authorize for the
 * challenge, at /oauth/token for the verifier, before the verifier is hashed and compared.
 */

// RFC 7636 §4.1: code_verifier = 43*128unreserved, unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~".
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
// RFC 7636 §4.2: the S256 challenge is BASE64URL(SHA-256(verifier)), 43 characters, no padding.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export const isCodeVerifier = (value: string): boolean => CODE_VERIFIER.test(value);
export const isS256Challenge = (value: string): boolean => S256_CHALLENGE.test(value);
