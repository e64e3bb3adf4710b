import type { JsonSchema } from "./openapi-types.js";

// Placeholder values by format, recognisably fake so nobody mistakes them for market data.
const STRING_BY_FORMAT: Record<string, string> = {
  "date-time": "2026-01-01T00:00:00.000Z",
  date: "2026-01-01",
  email: "you@example.com",
  uri: "https://example.com/hook",
  uuid: "00000000-0000-4000-8000-000000000000",
};

/**
 * A shape example generated from a JSON schema: enums show their first value, numbers their
 * minimum or 0. The docs label these as shapes, not real answers.
 */
export function exampleOf(schema: JsonSchema | undefined, schemas: Readonly<Record<string, JsonSchema>>, depth = 0): unknown {
  if (!schema || depth > 8) return null;
  if (schema.$ref) return exampleOf(schemas[schema.$ref.replace("#/components/schemas/", "")], schemas, depth + 1);
  if (schema.example !== undefined) return schema.example;
  if (schema.examples && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    const firstNonNull = options.find((o) => o.type !== "null") ?? options[0];
    return exampleOf(firstNonNull, schemas, depth + 1);
  }
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => exampleOf(s, schemas, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries(schema.properties ?? {})) out[name] = exampleOf(prop, schemas, depth + 1);
      return out;
    }
    case "array":
      return schema.items ? [exampleOf(schema.items, schemas, depth + 1)] : [];
    case "string":
      return STRING_BY_FORMAT[schema.format ?? ""] ?? "string";
    case "integer":
    case "number":
      return schema.minimum ?? 0;
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return null;
  }
}
