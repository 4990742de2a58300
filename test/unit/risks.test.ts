import { describe, expect, it } from 'vitest';
import { asOfBySource, assembleRisks, belowLettingMinimum, riskFlags, type DesignationRow, type RiskRecord } from '../../service/domain/risks.ts';
import { EPC_RATINGS, RISK_FLAG_CODES, RisksSchema } from '../../schemas/api/risks.ts';

const record = (over: Partial<RiskRecord> = {}): RiskRecord => ({
  uprn: 1, address: '1 High St', postcode: 'BS1 1AA', flood_zone: 1, flood_zone_2: false, flood_zone_3: false,
  conservation_area: false, article_4: false, listed_building: false, epc_current_rating: 'C', epc_potential_rating: 'B', country: 'England', ...over,
});
const d = (dataset: string, entity: number | null, name: string | null, reference: string | null = null, flood_risk_level: number | null = null): DesignationRow =>
  ({ dataset, entity, name, reference, flood_risk_level });

describe('belowLettingMinimum', () => {
  it('is true for F and G only', () => {
    expect(EPC_RATINGS.filter(belowLettingMinimum)).toEqual(['F', 'G']);
  });
});

describe('asOfBySource', () => {
  it('takes the latest date of the flood layers, the other planning layers and the EPC files, ignoring nulls', () => {
    expect(asOfBySource([
      { name: 'planning', path: 'planning/flood-risk-zone.geojson', as_of: null },
      { name: 'planning', path: 'planning/flood-risk-zone-2.geojson.gz', as_of: '2025-03-31' },
      { name: 'planning', path: 'planning/conservation-area.geojson', as_of: '1975-06-12' },
      { name: 'planning', path: 'planning/article-4-direction-area.geojson', as_of: '2016-02-25' },
      { name: 'epc', path: 'epc/a/certificates.csv', as_of: '2025-08-31' },
      { name: 'epc', path: 'epc/b/certificates.csv', as_of: '2025-07-31' },
      { name: 'price_paid', path: 'ppd/pp.csv', as_of: '2025-09-30' },
    ])).toEqual({ flood: '2025-03-31', planning: '2016-02-25', energy: '2025-08-31' });
  });

  it('dates a Scottish home\'s energy by the Scottish register\'s files', () => {
    const sources = [
      { name: 'epc', path: 'epc/certificates.csv', as_of: '2025-08-31' },
      { name: 'epc_scotland', path: 'epc/scotland/D_EPC_data.csv', as_of: '2025-06-30' },
    ];
    expect(asOfBySource(sources, 'Scotland').energy).toBe('2025-06-30');
    expect(asOfBySource(sources, 'Wales').energy).toBe('2025-08-31');
  });

  it('gives null for a source the build does not have', () => {
    expect(asOfBySource([{ name: 'planning', path: 'flood/x.geojson', as_of: '2020-01-01' }])).toEqual({ flood: null, planning: '2020-01-01', energy: null });
  });
});

describe('riskFlags', () => {
  it('lists every flag in the fixed order, naming the features', () => {
    const designations = [
      d('flood-risk-zone', 1, 'Zone 3: Avon', 'fz3', 3),
      d('conservation-area', 2, 'Clifton', 'CA1'),
      d('article-4-direction-area', 3, null, 'A4-7'),
      d('listed-building-outline', 4, null, null),
      d('green-belt', 5, 'Avon Green Belt'),
      d('tree-preservation-zone', 6, 'TPZ 1'),
    ];
    const flags = riskFlags(
      record({ flood_zone: 3, flood_zone_2: true, flood_zone_3: true, conservation_area: true, article_4: true, listed_building: true }),
      designations,
      'G',
    );
    expect(flags.map((f) => f.code)).toEqual(['flood_zone_3', 'conservation_area', 'article_4', 'listed_building', 'other_designation', 'other_designation', 'epc_below_letting_minimum']);
    expect(flags[0]!.message).toContain('(Zone 3: Avon)');
    expect(flags[2]!.message).toContain('(A4-7)'); // no name: the reference
    expect(flags[3]!.message).toContain('(entity 4)'); // neither: the entity
    expect(flags[4]!.message).toBe('Within green-belt (Avon Green Belt).');
    expect(flags[6]!.message).toContain('rating G is below the minimum of E');
    // Order is RISK_FLAG_CODES order.
    const order = flags.map((f) => RISK_FLAG_CODES.indexOf(f.code));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('flags zone 2 when not in zone 3, and no_epc when there is no certificate', () => {
    expect(riskFlags(record({ flood_zone: 2, flood_zone_2: true }), [], null).map((f) => f.code)).toEqual(['flood_zone_2', 'no_epc']);
    expect(riskFlags(record(), [], 'E')).toEqual([]);
  });
});

describe('assembleRisks', () => {
  it('splits flood areas from planning designations and fits the response schema', () => {
    const r = assembleRisks(
      record({ flood_zone: 2, flood_zone_2: true, conservation_area: true, epc_current_rating: 'F', epc_potential_rating: 'X' }),
      [d('conservation-area', 2, 'Clifton', 'CA1'), d('flood-risk-zone', 1, 'Zone 2', 'fz2', 2), d('flood-risk-zone', 9, 'No level', 'fz', null)],
      [],
      'b1',
    );
    expect(RisksSchema.parse(r)).toEqual(r);
    expect(r.flood.areas.map((a) => a.flood_risk_level)).toEqual([2, null]);
    expect(r.planning.designations).toEqual([{ dataset: 'conservation-area', entity: 2, reference: 'CA1', name: 'Clifton' }]);
    expect(r.energy).toEqual({ current_rating: 'F', potential_rating: null, minimum_rating_for_letting: 'E', below_letting_minimum: true });
    expect(r.as_of).toEqual({ flood: null, planning: null, energy: null });
  });
});

describe('a Scottish home', () => {
  it('has no England and Wales minimum for letting: no flag, null minimum and null below-minimum, schema-valid', () => {
    const r = assembleRisks(record({ country: 'Scotland', epc_current_rating: 'G' }), [], [], 'b1');
    expect(RisksSchema.parse(r)).toEqual(r);
    expect(r.energy).toEqual({ current_rating: 'G', potential_rating: 'B', minimum_rating_for_letting: null, below_letting_minimum: null });
    expect(r.flags).toEqual([]);
    // Without a certificate it still needs one to be sold or let.
    expect(riskFlags(record({ country: 'Scotland', epc_current_rating: null }), [], null).map((f) => f.code)).toEqual(['no_epc']);
  });
});

describe('outside England (the planning and flood layers\' coverage)', () => {
  const unknown = { flood_zone: null, flood_zone_2: null, flood_zone_3: null, conservation_area: null, article_4: null, listed_building: null };
  for (const country of ['Wales', 'Scotland']) {
    it(`a home in ${country}: null flags, no flood or planning flag, coverage says why`, () => {
      const r = assembleRisks(record({ ...unknown, country, epc_current_rating: 'D' }), [], [], 'b1');
      expect(RisksSchema.parse(r)).toEqual(r);
      expect(r.flood).toEqual({ flood_zone: null, flood_zone_2: null, flood_zone_3: null, areas: [] });
      expect(r.planning).toEqual({ conservation_area: null, article_4: null, listed_building: null, designations: [] });
      expect(r.coverage).toMatchObject({ area: 'England', covered: false });
      expect(r.coverage.note).toMatch(/England only.*Natural Resources Wales and SEPA/);
      expect(r.flags).toEqual([]);
    });
  }
  it('an English home is covered, with no note', () => {
    expect(assembleRisks(record({}), [], ALL_LAYERS, 'b1').coverage).toEqual({ area: 'England', covered: true, note: null });
  });
});

/** A build's planning files: every layer the flags read, as planning.data.gov.uk names its downloads. */
const ALL_LAYERS = ['flood-risk-zone', 'conservation-area', 'article-4-direction-area', 'listed-building-outline'].map((n) => ({ name: 'planning', path: `planning/${n}.geojson`, as_of: '2025-08-01' }));

describe('a flag whose layer the build did not load', () => {
  const noListed = ALL_LAYERS.filter((s) => !s.path.includes('listed'));
  it('is null, not false, and the coverage note names it; the loaded layers keep their false', () => {
    const r = assembleRisks(record({ listed_building: false, conservation_area: false, article_4: false, flood_zone: 1, flood_zone_2: false, flood_zone_3: false }), [], noListed, 'b1');
    expect(r.planning.listed_building).toBeNull();
    expect(r.planning.conservation_area).toBe(false);
    expect(r.planning.article_4).toBe(false);
    expect(r.flood).toMatchObject({ flood_zone: 1, flood_zone_2: false, flood_zone_3: false });
    expect(r.coverage).toEqual({ area: 'England', covered: true, note: 'No layer for listed_building is loaded in this build, so that flag is unknown (null), not false.' });
    expect(RisksSchema.parse(r)).toEqual(r);
  });
  it('a listed building of a build with the layer stays true and is flagged', () => {
    const r = assembleRisks(record({ listed_building: true }), [], ALL_LAYERS, 'b1');
    expect(r.planning.listed_building).toBe(true);
    expect(r.flags.map((f) => f.code)).toContain('listed_building');
  });
  it('without a flood layer the zone and both flood flags are null and no flood flag is raised', () => {
    const noFlood = ALL_LAYERS.filter((s) => !s.path.includes('flood'));
    const r = assembleRisks(record({ flood_zone: 3, flood_zone_2: true, flood_zone_3: true }), [], noFlood, 'b1');
    expect(r.flood).toMatchObject({ flood_zone: null, flood_zone_2: null, flood_zone_3: null });
    expect(r.flags.map((f) => f.code)).not.toContain('flood_zone_3');
    expect(r.coverage.note).toBe('No layer for flood_zone is loaded in this build, so that flag is unknown (null), not false.');
  });
});
