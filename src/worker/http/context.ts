import type { Principal } from "../auth/principal";
import type { ProblemCode } from "./problem-types";

/** The Hono environment every module of the worker shares: bindings and per-request variables. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** The configured origin the request reached (src/worker/http/public-origin.ts): issuer and server URL. */
    publicOrigin: string;
    /** Set by src/worker/auth/authenticate.ts on every route it guards. */
    principal: Principal;
    /** The code of the problem the request was answered with, noted by the app's onError (usage counting). */
    problemCode: ProblemCode;
    /** Refused for its credential before authentication: counted per deployment (src/worker/usage/). */
    authRefused: boolean;
  };
}
