import { parsePrometheusText, Sample } from './domain/prometheus-text';

/** Each app's /metrics samples at once (app name → its base URL), for stageWaits' before and after. */
export async function scrapeMetrics(apps: Record<string, string>): Promise<Record<string, Sample[]>> {
  const scraped = await Promise.all(
    Object.entries(apps).map(async ([app, url]) => {
      const response = await fetch(`${url}/metrics`);
      if (!response.ok) throw new Error(`${app} answered /metrics with ${response.status}`);
      return [app, parsePrometheusText(await response.text())] as const;
    }),
  );
  return Object.fromEntries(scraped);
}
