/** The Hono environment every module of the worker shares: bindings and per-request variables. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
  };
}
