/**
 * A wide table in a region that scrolls sideways on a phone rather than the page: focusable and
 * named by the text that introduces it (axe scrollable-region-focusable), one header per column.
 */
import type { Child } from "hono/jsx";

export function ScrollTable(props: { class: string; labelledBy: string; columns: string[]; children: Child }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a scrolling region must be focusable and named (axe scrollable-region-focusable).
    <div class="table-scroll" tabindex={0} role="region" aria-labelledby={props.labelledBy}>
      <table class={props.class}>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
