const W = 96;
const H = 24;
const SVG_NS = "http://www.w3.org/2000/svg";

/** A tiny SVG trend line (oldest to newest); labelled with its first and last value for screen readers. */
export function sparkline(values: readonly number[], name: string): SVGSVGElement | null {
  if (values.length < 2) return null;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const points = values.map((v, i) => `${((i / (values.length - 1)) * W).toFixed(1)},${(H - 2 - ((v - min) / span) * (H - 4)).toFixed(1)}`).join(" ");
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", String(W));
  svg.setAttribute("height", String(H));
  svg.setAttribute("role", "img");
  const first = values[0] ?? 0;
  const last = values[values.length - 1] ?? 0;
  svg.setAttribute("aria-label", `${name} trend over ${values.length} readings: ${first.toPrecision(4)} to ${last.toPrecision(4)}`);
  const line = document.createElementNS(SVG_NS, "polyline");
  line.setAttribute("points", points);
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", last >= first ? "#56d364" : "#ff7b72");
  line.setAttribute("stroke-width", "1.5");
  svg.append(line);
  return svg;
}
