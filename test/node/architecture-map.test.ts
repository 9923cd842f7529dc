/**
 * docs/architecture.md keeps up with the tree: its map and its table name every folder of
 * src/worker/, and "Which door is which" every door of scripts/ (with the command it calls) and
 * every door the worker exports to the runtime.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(REPO, file), "utf8");
const DOC = read("docs/architecture.md");
const doors = DOC.slice(DOC.indexOf("### Which door is which"));

describe("docs/architecture.md", () => {
  const folders = readdirSync(path.join(REPO, "src/worker"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it("maps every folder of src/worker/ in the diagram and in the table", () => {
    // Every box of the worker side (ids w…): its folders, each the first word of a comma-separated label.
    const labels = [...DOC.matchAll(/\bw\w+\[([^\]]+)\]/g)].flatMap((box) => box[1]?.split(", ") ?? []);
    const inDiagram = new Set(labels.map((label) => label.split(/[:\s]/)[0]));
    expect(folders.filter((folder) => !inDiagram.has(folder))).toEqual([]);
    const tableFolders = DOC.split("\n")
      .filter((line) => line.startsWith("| `"))
      .flatMap((line) => line.split("|")[1]?.match(/`[\w-]+\/`/g) ?? []);
    expect(folders.filter((folder) => !tableFolders.includes(`\`${folder}/\``))).toEqual([]);
  });

  it("says which command each door of scripts/ calls", () => {
    const scripts = readdirSync(path.join(REPO, "scripts")).filter((file) => file.endsWith(".ts"));
    expect(scripts.length).toBeGreaterThan(5);
    for (const script of scripts) {
      const command = /from "\.\.\/(src\/node\/[^"]+)"/.exec(read(`scripts/${script}`))?.[1];
      expect(doors, script).toMatch(new RegExp(`\\| \`scripts/${script}\` \\|[^\\n]*\\| \`${command}\\.ts\` \\|`));
    }
  });

  it("names every door the worker exports: fetch, queue and each Durable Object class", () => {
    const entry = read("src/worker/index.ts");
    const classes = [...entry.matchAll(/^export \{ (\w+) \} from/gm)].map((match) => match[1]);
    expect(classes.length).toBeGreaterThan(2);
    for (const door of ["fetch", "queue", ...classes]) expect(doors, door).toContain(`| \`${door}\``);
  });
});
