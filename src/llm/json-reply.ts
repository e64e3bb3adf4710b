/**
 * The JSON object inside a model's text reply. Models often wrap JSON in ``` fences or add a
 * sentence around it; the first balanced-looking `{…}` span is taken. Undefined when none parses.
 */
export function extractJsonObject(text: string): unknown {
  const trimmed = text.trim();
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
  const candidates = [trimmed, fenced?.[1]?.trim() ?? ""];
  const start = trimmed.indexOf("{");
  const end = trimmed.lastIndexOf("}");
  if (start >= 0 && end > start) candidates.push(trimmed.slice(start, end + 1));
  for (const c of candidates) {
    if (c === "") continue;
    try {
      const v = JSON.parse(c) as unknown;
      if (v !== null && typeof v === "object" && !Array.isArray(v)) return v;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}
