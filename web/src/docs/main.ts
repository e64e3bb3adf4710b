import { byId, el } from "../dom.js";
import { exampleOf } from "./example.js";
import type { JsonSchema, OpenApiDoc, Operation } from "./openapi-types.js";

const METHODS = ["get", "head", "post", "patch", "delete"] as const;

function tierOf(op: Operation): string {
  const tier = op["x-tier"];
  return tier ? `${tier[0]?.toUpperCase() ?? ""}${tier.slice(1)} key (X-API-Key)` : "Public, no key";
}

/** The curl line for one operation, with the key taken from an environment variable. */
function curlFor(method: string, path: string, op: Operation, body: unknown): string {
  // curl -X HEAD would wait for a body that never comes; -I asks for the headers only.
  const verb = method === "get" ? "" : method === "head" ? " -I" : ` -X ${method.toUpperCase()}`;
  const parts = [`curl -sS${verb} "$MIS_BASE_URL${path.replace(/\{(\w+)\}/g, "<$1>")}"`];
  if (op["x-tier"]) parts.push(`-H "X-API-Key: $MIS_API_KEY"`);
  if (body !== undefined) parts.push(`-H "Content-Type: application/json" -d '${JSON.stringify(body)}'`);
  return parts.join(" \\\n  ");
}

function renderOperation(doc: OpenApiDoc, method: string, path: string, op: Operation): HTMLElement {
  const schemas = doc.components?.schemas ?? {};
  const id = `op-${method}-${path.replace(/[^a-z0-9]+/gi, "-")}`;
  const section = el("section", { class: "endpoint", id, "aria-labelledby": `${id}-h` });
  section.append(el("h3", { id: `${id}-h` }, el("span", { class: "method" }, method), el("code", {}, path)));
  section.append(el("p", {}, op.summary ?? "", " — ", el("strong", {}, tierOf(op))));
  if (op.description) section.append(el("p", {}, op.description));
  const params = op.parameters ?? [];
  if (params.length > 0) {
    const list = el("ul");
    for (const p of params) list.append(el("li", {}, el("code", {}, p.name), ` (${p.in}${p.required ? ", required" : ""})${p.schema?.default !== undefined ? ` default ${JSON.stringify(p.schema.default)}` : ""}${p.description ? ` — ${p.description}` : ""}`));
    section.append(el("h4", {}, "Parameters"), list);
  }
  const bodySchema: JsonSchema | undefined = op.requestBody?.content?.["application/json"]?.schema;
  const bodyExample = bodySchema ? exampleOf(bodySchema, schemas) : undefined;
  if (bodySchema) section.append(el("h4", {}, "Request body"), el("pre", {}, JSON.stringify(bodyExample, null, 2)));
  section.append(el("h4", {}, "Example request"), el("pre", {}, curlFor(method, path, op, bodyExample)));
  for (const [status, res] of Object.entries(op.responses ?? {})) {
    const schema = res.content?.["application/json"]?.schema;
    const ok = status.startsWith("2");
    if (ok) {
      section.append(el("h4", {}, `Response ${status} (shape)`), el("pre", {}, JSON.stringify(exampleOf(schema, schemas), null, 2)));
    }
  }
  const errors = Object.entries(op.responses ?? {}).filter(([s]) => !s.startsWith("2"));
  if (errors.length > 0) section.append(el("p", {}, "Errors: ", errors.map(([s, r]) => `${s} ${r.description ?? ""}`).join(" · ")));
  return section;
}

async function main(): Promise<void> {
  const target = byId<HTMLElement>("endpoints");
  const status = byId<HTMLElement>("endpoints-status");
  try {
    const res = await fetch("/v1/openapi.json", { headers: { accept: "application/json" } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const doc = (await res.json()) as OpenApiDoc;
    byId<HTMLElement>("api-version").textContent = doc.info.version;
    const toc = el("ul", { class: "toc" });
    let count = 0;
    for (const [path, item] of Object.entries(doc.paths).sort(([a], [b]) => a.localeCompare(b))) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const section = renderOperation(doc, method, path, op);
        toc.append(el("li", {}, el("a", { href: `#${section.id}` }, `${method.toUpperCase()} ${path}`)));
        target.append(section);
        count++;
      }
    }
    target.prepend(toc);
    status.textContent = `${count} operations, generated from /v1/openapi.json.`;
  } catch (err) {
    status.textContent = `Could not load /v1/openapi.json (${err instanceof Error ? err.message : "unknown error"}); the sections above still apply.`;
  }
}

void main();
