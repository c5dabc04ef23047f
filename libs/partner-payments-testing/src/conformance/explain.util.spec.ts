import { explainDivergence, targetOf } from './explain.util';
import type { ConformanceProbe } from './probe.types';
import { t } from './shape.util';

const probe = (kind: 'contract' | 'evidence', ref: string, knownConflict?: string): ConformanceProbe => ({
  id: 'x.y',
  area: 'users',
  behaviour: 'b',
  sources: [{ kind, ref }],
  knownConflict,
  writes: false,
  request: { method: 'GET', path: '/v1/users' },
  expect: { status: 200, shape: t.object({}) },
});

describe('divergence explanations', () => {
  it('against the partner: a contract probe means the partner departs from its contract', () => {
    const text = explainDivergence(probe('contract', '§5.7', 'the gateway answers { message }'), 'partner');
    expect(text).toBe(
      'The kit believes the contract (docs/partner-api.md §5.7), which wins over every observation. Known conflict, not a change: the gateway answers { message }. The partner departs from its own contract: raise it with the partner (simulators keep the contract).',
    );
  });

  it('against the partner: an evidence probe means the partner changed since a dated observation', () => {
    const text = explainDivergence(probe('evidence', '[T3r DRIFT-35]'), 'partner');
    expect(text).toContain(
      'The kit believes the evidence [T3r DRIFT-35] (a runtime probe of the partner sandbox, May 2026); the contract is silent here.',
    );
    expect(text).toContain('The partner changed since that observation');
  });

  it('against a simulator: the simulator is wrong', () => {
    expect(explainDivergence(probe('evidence', '[T1s §3.10]'), 'simulator')).toContain(
      '(a sandbox check, Sep 2026); the contract is silent here. This is a simulator: the simulator is wrong',
    );
  });

  it('an evidence probe that cites the contract too says the contract does not settle the detail', () => {
    const withContract = {
      ...probe('evidence', '[T2]'),
      sources: [...probe('evidence', '[T2]').sources, { kind: 'contract' as const, ref: '§4.6' }],
    };
    expect(explainDivergence(withContract, 'partner')).toContain(
      'The kit believes the evidence [T2] (a reading of client code or docs, not a runtime observation (weaker)); the contract (§4.6) does not settle this detail.',
    );
  });

  it('a loopback host or hooks make a simulator; anything else is the partner', () => {
    expect(targetOf('http://127.0.0.1:4010/sandbox', false)).toBe('simulator');
    expect(targetOf('http://localhost:4010/sandbox', false)).toBe('simulator');
    expect(targetOf('https://api.partner.example/sandbox', true)).toBe('simulator');
    expect(targetOf('https://api.partner.example/sandbox', false)).toBe('partner');
  });
});
