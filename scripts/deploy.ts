/** `npm run deploy`: the command-line door; usage, work and exit codes live in src/node/deploy/command.ts. */
import { deploy } from "../src/node/deploy/command";

deploy.door();
