import { ColorType, createChart, type DeepPartial, type ChartOptions, type IChartApi } from "lightweight-charts";

const THEME: DeepPartial<ChartOptions> = {
  autoSize: true,
  layout: { background: { type: ColorType.Solid, color: "#11161d" }, textColor: "#c9d1d9", attributionLogo: false },
  grid: { vertLines: { color: "#1f2630" }, horzLines: { color: "#1f2630" } },
  rightPriceScale: { borderColor: "#30363d" },
  timeScale: { borderColor: "#30363d", timeVisible: true },
};

/** A chart in a labelled box; the returned clean-up frees its canvas and resize observer. */
export function chartIn(parent: HTMLElement, ariaLabel: string, height: number): { chart: IChartApi; cleanup: () => void } {
  const box = document.createElement("div");
  box.className = "chart";
  box.style.height = `${height}px`;
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", ariaLabel);
  parent.append(box);
  const chart = createChart(box, THEME);
  return { chart, cleanup: () => chart.remove() };
}

export const COLORS = { up: "#3fb950", down: "#f85149", line: "#58a6ff", muted: "#8b949e" } as const;
