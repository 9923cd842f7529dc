/** `npm run keys`: the operator CLI's deprecated name (one release more); see src/node/operator/operator-command.ts. */
import { runDeprecatedKeys } from "../src/node/operator/operator-command";

runDeprecatedKeys();
