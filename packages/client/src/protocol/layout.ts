/**
 * How a release's parts tile its document (README "Paging and verifying"), shared by the publish
 * check (src/node/catalog/release-check.ts) and the client, so both refuse exactly the same manifests:
 * parts numbered in order, each starting where the previous one ended, `part_bytes` long except
 * the last (which may be shorter, never empty), together covering `bytes`.
 */
export interface PartLayout {
  index: number;
  offset: number;
  length: number;
}

/** Everything wrong with the layout, as sentences naming the field; empty when the parts tile the document. */
export function layoutProblems(
  manifest: { bytes: number; part_bytes: number; parts: readonly PartLayout[] },
  prefix = "manifest.",
): string[] {
  const problems: string[] = [];
  let offset = 0;
  manifest.parts.forEach((part, position) => {
    const where = `${prefix}parts[${position}]`;
    if (part.index !== position) problems.push(`${where}.index: expected ${position}, found ${part.index}`);
    if (part.offset !== offset) problems.push(`${where}.offset: expected ${offset}, found ${part.offset}`);
    const isLast = position === manifest.parts.length - 1;
    if (part.length <= 0 || (isLast ? part.length > manifest.part_bytes : part.length !== manifest.part_bytes)) {
      problems.push(`${where}.length: ${part.length} does not fit part_bytes ${manifest.part_bytes}`);
    }
    offset = part.offset + part.length;
  });
  if (offset !== manifest.bytes)
    problems.push(`${prefix}bytes: the parts cover ${offset} bytes, the manifest says ${manifest.bytes}`);
  return problems;
}
