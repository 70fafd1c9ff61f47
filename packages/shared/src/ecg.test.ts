import { describe, expect, it } from 'vitest';
import { ecgOutOfNorm, ecgReference, qtcBazett, qtcFridericia, withCorrections } from './ecg.js';

describe('QT corrections', () => {
  it.each([
    // [QT, RR, Bazett, Fridericia], worked by hand with RR in seconds.
    [400, 1000, 400, 400], // RR 1 s: no correction
    [400, 640, 500, 464], // √0.64 = 0.8; ∛0.64 = 0.8618
    [360, 810, 400, 386], // √0.81 = 0.9; ∛0.81 = 0.9322 -> 386.2
    [380, 900, 401, 394], // 380/0.9487 = 400.55; 380/0.9655 = 393.58
    [440, 1250, 394, 408], // slow heart: the corrections shorten QT
  ])('QT %i ms at RR %i ms: QTcB %i, QTcF %i', (qt, rr, bazett, fridericia) => {
    expect(qtcBazett(qt, rr)).toBe(bazett);
    expect(qtcFridericia(qt, rr)).toBe(fridericia);
  });

  it('computes both only when QT and RR are measured', () => {
    expect(withCorrections({ qt: 400, rr: 640, pq: 160, qrs: 90 })).toEqual({
      qt: 400,
      rr: 640,
      pq: 160,
      qrs: 90,
      qtcb: 500,
      qtcfra: 464,
    });
    expect(withCorrections({ qt: 400, rr: null, pq: null, qrs: null })).toMatchObject({
      qtcb: null,
      qtcfra: null,
    });
  });
});

describe('out of norm', () => {
  const results = (qtcb: number, extra: Partial<Record<string, number | null>> = {}) => ({
    qt: 400,
    rr: 800,
    pq: 160,
    qrs: 90,
    qtcb,
    qtcfra: 440,
    ...extra,
  });

  it('reads QTcB by sex: 455 ms is long for a man, normal for a woman', () => {
    expect(ecgReference('qtcb', 'M')).toEqual({ max: 450 });
    expect(ecgReference('qtcb', 'K')).toEqual({ max: 460 });
    expect(ecgOutOfNorm(results(455), 'M')).toEqual(['qtcb']);
    expect(ecgOutOfNorm(results(455), 'K')).toEqual([]);
    expect(ecgOutOfNorm(results(461), 'K')).toEqual(['qtcb']);
  });

  it('flags values below and above their range, at the limits not yet', () => {
    expect(ecgOutOfNorm(results(440, { pq: 120, qrs: 110, rr: 1000 }), 'M')).toEqual([]);
    expect(ecgOutOfNorm(results(440, { pq: 119, qrs: 111, rr: 1001 }), 'M')).toEqual([
      'rr',
      'pq',
      'qrs',
    ]);
    expect(ecgOutOfNorm(results(440, { rr: 599, qtcfra: 451 }), 'K')).toEqual(['rr', 'qtcfra']);
  });

  it('never flags QT itself (no range) nor a value not measured', () => {
    expect(ecgReference('qt', 'M')).toEqual({});
    expect(
      ecgOutOfNorm({ qt: 700, rr: null, pq: null, qrs: null, qtcb: null, qtcfra: null }, 'M'),
    ).toEqual([]);
  });
});
