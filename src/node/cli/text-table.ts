import { expectDefined } from "../../common/expect";

/**
 * Rows as aligned columns, two spaces apart, trailing spaces trimmed: what the CLIs print for a
 * list (`npm run operator`, `catalog:rollback -- --list`). Columns in `rightAligned` (numbers) are
 * padded on the left.
 */
export function textTable(rows: readonly (readonly string[])[], rightAligned: readonly number[] = []): string {
  const widths: number[] = [];
  for (const row of rows)
    for (const [column, cell] of row.entries()) widths[column] = Math.max(widths[column] ?? 0, cell.length);
  return rows
    .map((row) =>
      row
        .map((cell, column) => {
          const width = expectDefined(widths[column], "a width for every column");
          return rightAligned.includes(column) ? cell.padStart(width) : cell.padEnd(width);
        })
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
