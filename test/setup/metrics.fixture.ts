/** Reads GET /metrics (Prometheus text format) of an app started by startTestApp. */
import type { RunningApp } from '../../apps/reference-app/src/app-bootstrap.util';
import { appRequest } from './app.fixture';

export interface Scrape {
  text: string;
  /** `name{a="1",b="2"}` (labels sorted) -> value. */
  samples: Map<string, number>;
  /** Metric families declared by `# TYPE` lines. */
  families: Set<string>;
  /** The value of one series, 0 when it is absent. */
  value(name: string, labels?: Record<string, string>): number;
}

const key = (name: string, labels: Record<string, string>): string => {
  const parts = Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]}"`);
  return parts.length ? `${name}{${parts.join(',')}}` : name;
};

export function parseMetrics(text: string): Scrape {
  const samples = new Map<string, number>();
  const families = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) /.exec(line);
    if (type) families.add(type[1]);
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.set(key(m[1], labels), Number(m[3]));
  }
  return {
    text,
    samples,
    families,
    value: (name, labels = {}) => samples.get(key(name, labels)) ?? 0,
  };
}

export async function scrapeMetrics(running: RunningApp): Promise<Scrape> {
  const res = await appRequest(running).get('/metrics').expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(res.text);
}
