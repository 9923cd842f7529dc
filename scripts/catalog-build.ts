/** `npm run catalog:build`: the command-line door; usage, work and exit codes live in src/node/catalog/build/command.ts. */
import { catalogBuild } from "../src/node/catalog/build/command";

catalogBuild.door();
