import { ConfigValidationError, loadAppConfig } from './app.config';
import { parseOtlpHeaders } from './observability.config';

describe('observability configuration', () => {
  it('defaults: text logs, readiness on the partner and a 300 s inbox bound, no tracing', () => {
    expect(loadAppConfig({}).observability).toEqual({
      logFormat: 'text',
      readiness: { inboxMaxLagMs: 300_000, partnerRequired: true },
      tracing: null,
    });
  });

  it('OTLP: the base endpoint gets /v1/traces, the traces endpoint is used as is, OTEL_SDK_DISABLED wins', () => {
    const base = loadAppConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).observability;
    expect(base.tracing).toMatchObject({
      tracesUrl: 'http://collector:4318/v1/traces',
      serviceName: 'partner-payments-reference-app',
      sampler: { name: 'parentbased_always_on', ratio: 1 },
    });
    const sampled = loadAppConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    }).observability.tracing;
    expect(sampled?.sampler).toEqual({ name: 'parentbased_traceidratio', ratio: 0.1 });
    const own = loadAppConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/api/v1/spans',
      OTEL_SERVICE_NAME: 'payments-eu',
    }).observability.tracing;
    expect(own).toMatchObject({
      tracesUrl: 'https://traces.example/api/v1/spans',
      serviceName: 'payments-eu',
    });
    const off = loadAppConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' });
    expect(off.observability.tracing).toBeNull();
  });

  it('OTEL_EXPORTER_OTLP_HEADERS: key=value pairs, values URL-decoded', () => {
    expect(parseOtlpHeaders('api-key=abc%20def, x-tenant = eu ,bad')).toEqual({
      'api-key': 'abc def',
      'x-tenant': 'eu',
    });
  });

  it.each([
    ['LOG_FORMAT', 'xml'],
    ['READINESS_INBOX_MAX_LAG_SECONDS', '-1'],
    ['READINESS_REQUIRES_PARTNER', 'yes'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'no-equals-sign'],
    ['OTEL_TRACES_SAMPLER', 'sometimes'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
  ])('a bad %s stops the boot naming it, never echoing the value', (variable, value) => {
    let error: unknown;
    try {
      loadAppConfig({ [variable]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    expect((error as ConfigValidationError).problems.map((p) => p.variable)).toEqual([variable]);
    expect((error as Error).message).not.toContain(value);
  });
});
