/** The conformance kit's public surface (issue 12), re-exported by the package index. */
export { runConformance, describeExpectation } from './conformance.runner';
export { CONFORMANCE_PROBES } from './probes';
export { sandboxConformanceHooks } from './sandbox.hooks';
export { renderReport, reportJson } from './report.render';
export { writePolicy, isSandboxBaseUrl, redact } from './safety.util';
export { t, describeShape, matchShape, type Shape } from './shape.util';
export { conformanceOptionsFromCli, runConformanceCli } from './conformance.cli';
export { fidelityTable } from './fidelity.table';
export type * from './probe.types';
