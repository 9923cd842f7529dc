/**
 * Who a request acts for, once `authenticate` has accepted its credential: what routes and the
 * limiter need, and nothing secret (a key is named by id and last four characters).
 */
import type { KeyMode } from "../../common/auth/api-key";
import type { Scope } from "../../common/auth/scopes";

export interface Principal {
  kind: "api_key" | "access_token";
  /** The SubjectGuard's name: the key id for an API key, the grant id for an OAuth access token. */
  subject: string;
  accountId: string;
  /** Picks the rate-limit policy; for an access token, the mode of the deployment that issued it. */
  mode: KeyMode;
  scopes: readonly Scope[];
  /** API keys only: the key's id and last four characters (safe to show and log). */
  keyId?: string;
  last4?: string;
  /** Access tokens only: the OAuth client acting for the customer. */
  clientId?: string;
}
