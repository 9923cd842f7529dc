/**
 * What a Markdown page's link check needs: its links (outside code), the repository paths it
 * names in code spans, and the anchors of its headings, slugged as GitHub slugs them (github-slugger: lower-case, punctuation
 * removed, each space a hyphen, "-1", "-2"… for repeated headings).
 */

export interface MarkdownLink {
  target: string;
  line: number;
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fence: string | undefined;
  text.split("\n").forEach((line, index) => {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker && (fence === undefined || fence === marker)) fence = fence === undefined ? marker : undefined;
    else if (fence === undefined) lines.push({ text: line, line: index + 1 });
  });
  return lines;
}

const withoutCodeSpans = (line: string) => line.replace(/(`+)[^`]*?\1/g, "");

export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { text: line, line: number } of proseLines(text)) {
    for (const match of withoutCodeSpans(line).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1] ?? "", line: number });
    }
  }
  return links;
}

export function githubSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

export function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Repository paths a page names in code spans (`src/…`, `scripts/…`…), without globs or placeholders. */
export function namedRepoPaths(text: string): MarkdownLink[] {
  const named: MarkdownLink[] = [];
  for (const { text: line, line: number } of proseLines(text)) {
    for (const [, span = ""] of line.matchAll(/`([^`]+)`/g)) {
      for (const [candidate] of span.matchAll(/(?<![\w./-])(?:src|scripts|test|bench|packages|data)\/[\w./{}*<>-]*/g)) {
        if (!/[{}*<>]/.test(candidate)) named.push({ target: candidate.replace(/[.]$/, ""), line: number });
      }
    }
  }
  return named;
}
