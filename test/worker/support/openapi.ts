/** Reading /openapi.json in tests: a path or an operation, or an error naming what the document lacks. */
import { expectDefined } from "../../../src/common/expect";

/** The path item `path` of the document's `paths`. */
export function pathItem<Item>(paths: Record<string, Item>, path: string): Item {
  return expectDefined(paths[path], `the path ${path} in /openapi.json`);
}

/** The operation `method` (lower case, as the document spells it) of `path`. */
export function operationOf<Operation>(
  paths: Record<string, Record<string, Operation>>,
  path: string,
  method: string,
): Operation {
  return expectDefined(pathItem(paths, path)[method], `${method.toUpperCase()} ${path} in /openapi.json`);
}
