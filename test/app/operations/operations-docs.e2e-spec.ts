/**
 * docs/operations.md and its Grafana dashboard stay true: the dashboard JSON parses and
 * every series its panels and the runbook's alert rules query exists in a real scrape of the app;
 * every metric the app exports is described in the runbook.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { scrapeMetrics, type Scrape } from '../../setup/metrics.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

const DOCS = join(__dirname, '..', '..', '..', 'docs');
const runbook = readFileSync(join(DOCS, 'operations.md'), 'utf8');

/** PromQL words that are not metric names. */
const PROMQL = new Set([
  ...[
    'sum',
    'max',
    'min',
    'avg',
    'count',
    'by',
    'without',
    'on',
    'ignoring',
    'group_left',
    'and',
    'or',
    'unless',
  ],
  ...['rate', 'irate', 'increase', 'histogram_quantile', 'clamp_min', 'clamp_max', 'le', 'bool', 'offset'],
]);

/** Metric names an expression reads: label matchers, grouping lists, strings and ranges removed. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/(?<![\w:])\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi, '');
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((w) => !PROMQL.has(w));
}

/** A family, or a histogram's _bucket/_count/_sum series. */
function exported(scrape: Scrape, name: string): boolean {
  if (scrape.families.has(name)) return true;
  const base = name.replace(/_(bucket|count|sum)$/, '');
  return base !== name && scrape.families.has(base);
}

describe('docs/operations.md and the Grafana dashboard', () => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let scrape: Scrape;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'opsdocs');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox);
    scrape = await scrapeMetrics(running);
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  it('the dashboard parses and every series it queries is exported', () => {
    const dashboard = JSON.parse(
      readFileSync(join(DOCS, 'operations', 'grafana-dashboard.json'), 'utf8'),
    ) as {
      panels: Array<{ type: string; title: string; targets?: Array<{ expr: string }> }>;
    };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(15);
    const names = new Set(exprs.flatMap(metricNames));
    expect(names.size).toBeGreaterThan(10);
    expect([...names].filter((n) => !exported(scrape, n))).toEqual([]);
  });

  it('the alert rules cover what the issue asks, on exported series only', () => {
    const rules = /```yaml\n(groups:[\s\S]*?)```/.exec(runbook)?.[1] ?? '';
    const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
    expect(alerts).toEqual(
      expect.arrayContaining([
        'PartnerInboxDeadEntries',
        'PartnerInboxBacklog',
        'PartnerReconciliationDrift',
        'PartnerApi5xxRate',
        'PartnerTokenFailures',
        'PartnerRfiBlocking',
      ]),
    );
    const exprs = [...rules.matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]);
    expect(exprs).toHaveLength(alerts.length);
    expect(exprs.flatMap(metricNames).filter((n) => !exported(scrape, n))).toEqual([]);
    // Each alert has its runbook entry.
    for (const alert of alerts) expect(runbook).toContain(`**${alert}.**`);
  });

  it("every metric of the app is described in the runbook's table", () => {
    const ours = [...scrape.families].filter((f) => /^(partner_|reconciliation_|payout_)/.test(f));
    expect(ours.length).toBeGreaterThanOrEqual(15);
    expect(ours.filter((f) => !runbook.includes(`\`${f}\``) && !runbook.includes(`\`${f}\`,`))).toEqual([]);
  });
});
