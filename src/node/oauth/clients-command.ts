/**
 * `npm run clients -- create|list|delete …`: the operator CLI for OAuth clients (applications that
 * act for customers). Clients are stored by the OAuth library in OAUTH_KV; this CLI runs the library
 * itself against the deployment's KV (local by default, `--remote` for Cloudflare). There is no
 * dynamic registration endpoint: this is the only way a client comes to exist.
 */
import { parseArgs } from "node:util";
import { expectDefined } from "../../common/expect";
import { redirectUriProblem } from "../../common/auth/redirect-uri";
import { type CliIo, cliCommand, EXIT, UsageError } from "../cli/cli-run";
import { DEPLOYMENT_HELP, DEPLOYMENT_OPTIONS, deploymentOptionsOf } from "../local/deployment-args";
import { withClientRegistry } from "./client-registry";

const HELP = `Usage: npm run clients -- <command> [options]

Manage the OAuth 2.0 clients (third-party applications) that may ask customers for access.

Commands:
  create --name <name> --redirect-uri <uri> [--redirect-uri <uri> …] [--public]
      Register a client. Each redirect URI must be https, or http on a loopback host
      (localhost, 127.0.0.1, [::1]); javascript:, data:, fragments and credentials are refused.
      Authorization requests must then use one of them exactly, character for character.
      --public   A client that cannot keep a secret (single-page or native app): it authenticates
                 with PKCE alone. Otherwise a client secret is printed once and never again.
  list
      Every client: id, name, kind, redirect URIs, registration date.
  delete <client_id>
      Delete a client and revoke every grant and token it holds. An id that starts with "-"
      goes after --: delete -- <client_id>.

Options:
  --json               Print the result as JSON.
${DEPLOYMENT_HELP}

Exit codes: 0 done, 1 failed (e.g. no such client), 2 usage error (e.g. a refused redirect URI).`;

const MAX_NAME_LENGTH = 100;

/** `npm run clients`: `clients.run(argv, io)` in process, `clients.door()` in scripts/clients.ts. */
export const clients = cliCommand("clients", HELP, clientsMain);

async function clientsMain(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...DEPLOYMENT_OPTIONS,
      name: { type: "string" },
      "redirect-uri": { type: "string", multiple: true },
      public: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (command !== "create" && command !== "list" && command !== "delete") {
    throw new UsageError(command ? `unknown command "${command}"` : "a command is required: create, list or delete");
  }
  const deployment = deploymentOptionsOf(values, io.err);
  const redirectUris = values["redirect-uri"] ?? [];
  const name = values.name?.trim();
  if (command === "create") {
    if (!name)
      throw new UsageError("--name is required: the application's name, shown to customers on the consent page");
    if (name.length > MAX_NAME_LENGTH)
      throw new UsageError(`--name is ${name.length} characters long; at most ${MAX_NAME_LENGTH}`);
    if (redirectUris.length === 0) throw new UsageError("at least one --redirect-uri is required");
    for (const uri of redirectUris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new UsageError(`--redirect-uri ${JSON.stringify(uri)} refused: ${problem}`);
    }
  } else if (command === "delete" && rest.length !== 1) {
    throw new UsageError("delete takes exactly one client_id");
  }

  // wrangler is imported only now (by withClientRegistry), so that usage errors answer at once.
  return withClientRegistry(deployment, async (api, { where, provider: { registerClient } }) => {
    if (command === "create") {
      const client = await registerClient(api, {
        name: expectDefined(name, "--name, checked above"),
        redirectUris,
        isPublic: values.public,
      });
      if (values.json) io.out(JSON.stringify(client, null, 2));
      else {
        io.out(`client_id:     ${client.clientId}`);
        if (client.clientSecret) io.out(`client_secret: ${client.clientSecret}   (shown once: store it now)`);
        io.out(
          `kind:          ${values.public ? "public (PKCE, no secret)" : "confidential (client_secret_basic or client_secret_post)"}`,
        );
        for (const uri of client.redirectUris) io.out(`redirect_uri:  ${uri}`);
      }
      io.err(`created client ${client.clientId} "${client.clientName}" on ${where}`);
    } else if (command === "list") {
      const clients = [];
      let cursor: string | undefined;
      do {
        const page = await api.listClients({ cursor });
        clients.push(...page.items);
        cursor = page.cursor;
      } while (cursor);
      clients.sort((a, b) => (a.registrationDate ?? 0) - (b.registrationDate ?? 0));
      if (values.json) io.out(JSON.stringify(clients, null, 2));
      else {
        for (const client of clients) {
          const kind = client.tokenEndpointAuthMethod === "none" ? "public" : "confidential";
          const created = client.registrationDate ? new Date(client.registrationDate * 1000).toISOString() : "?";
          io.out(
            `${client.clientId}  ${kind.padEnd(12)}  ${created}  ${client.clientName ?? ""}\n    ${client.redirectUris.join("\n    ")}`,
          );
        }
      }
      io.err(`${clients.length} client(s) on ${where}`);
    } else {
      const clientId = expectDefined(rest[0], "the one client_id, checked above");
      if (!(await api.lookupClient(clientId))) {
        io.err(`clients: no client ${clientId} on ${where}`);
        return EXIT.failed;
      }
      await api.deleteClient(clientId);
      io.err(`deleted client ${clientId} and revoked its grants on ${where}`);
    }
    return EXIT.ok;
  });
}
