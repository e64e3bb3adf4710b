type Child = Node | string | number | null | undefined | false;

interface Attrs {
  readonly [name: string]: string | number | boolean | undefined;
}

/**
 * Creates an element; strings become text nodes, never markup, so API text (agent reasoning,
 * event names) cannot inject HTML into the page.
 */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "object" ? child : String(child));
  }
  return node;
}

export function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`Missing element #${id}`);
  return node as T;
}

/** A two-column definition list, the most common shape of a panel body. */
export function facts(rows: readonly (readonly [string, Child])[]): HTMLDListElement {
  const dl = el("dl", { class: "facts" });
  for (const [term, value] of rows) dl.append(el("dt", {}, term), el("dd", {}, value ?? "—"));
  return dl;
}

/**
 * Gives every body cell of the tables under `root` its column's header as `data-label`, so a
 * phone-width stylesheet can show each row as a card of "label value" lines instead of a table
 * wider than the screen (styles.css).
 */
export function labelTableCells(root: HTMLElement): void {
  for (const table of root.querySelectorAll("table")) {
    const headers = Array.from(table.querySelectorAll("thead th"), (th) => th.textContent?.trim() ?? "");
    for (const row of table.querySelectorAll("tbody tr")) {
      Array.from(row.children).forEach((cell, i) => {
        const header = headers[i];
        if (header) cell.setAttribute("data-label", header);
      });
    }
  }
}
