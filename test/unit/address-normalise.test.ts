import { describe, expect, it } from 'vitest';
import { isFloorUnit, normalisePostcode, normaliseText, numberTokens, postcodeParts, unitKey } from '../../schemas/address-normalise.ts';

describe('normaliseText', () => {
  it.each([
    ['32 Aylesbury Cres.', '32 AYLESBURY CRESCENT'],
    ['32A Aylesbury Crescent', '32A AYLESBURY CRESCENT'],
    ['32 a Aylesbury Crescent', '32A AYLESBURY CRESCENT'],
    ['Flat 2, 10 High St', 'FLAT 2 10 HIGH STREET'],
    ['St Johns Rd', 'SAINT JOHNS ROAD'],
    ["St. John's Road", 'SAINT JOHNS ROAD'],
    ['12 - 14 Park Ave', '12-14 PARK AVENUE'],
    ['flt 3 gloucester rd', 'FLAT 3 GLOUCESTER ROAD'],
    ['  many   spaces ', 'MANY SPACES'],
    ['', ''],
  ])('%s → %s', (input, out) => {
    expect(normaliseText(input)).toBe(out);
  });

  it('reads ST as SAINT where a name starts and as STREET after a street word', () => {
    expect(normaliseText('12 high st bath')).toBe('12 HIGH STREET BATH');
    expect(normaliseText('12 St Marys Rd')).toBe('12 SAINT MARYS ROAD');
    expect(normaliseText('Church Cottage, St Marys Lane')).toBe('CHURCH COTTAGE SAINT MARYS LANE');
    expect(normaliseText('High St, Bath')).toBe('HIGH STREET BATH');
    expect(normaliseText('St Marys St')).toBe('SAINT MARYS STREET');
  });

  it('never reads a single letter as a compass point: it is usually a flat letter', () => {
    expect(normaliseText('Flat E')).toBe('FLAT E');
    expect(normaliseText('Flat E 10 High St')).toBe('FLAT E 10 HIGH STREET');
  });
});

describe('normalisePostcode', () => {
  it.each([
    ['bs1 4dj', 'BS1 4DJ'], ['BS14DJ', 'BS1 4DJ'], ['BS1  4DJ', 'BS1 4DJ'], ['ec1a1bb', 'EC1A 1BB'],
    ['M1 1AD', 'M1 1AD'], ['W1A 0AX', 'W1A 0AX'],
  ])('%s → %s', (input, out) => expect(normalisePostcode(input)).toBe(out));

  it.each(['', 'BS1', 'NOT A POSTCODE', '12345', 'BS1 4D'])('rejects %j', (input) => {
    expect(normalisePostcode(input)).toBeUndefined();
  });

  it('splits area, outcode and sector', () => {
    expect(postcodeParts('BS1 4DJ')).toEqual({ area: 'BS', outcode: 'BS1', sector: 'BS1 4' });
    expect(postcodeParts('EC1A 1BB')).toEqual({ area: 'EC', outcode: 'EC1A', sector: 'EC1A 1' });
  });
});

describe('unitKey', () => {
  it.each([
    ['FLAT 2', '2'], ['Flat 2,', '2'], ['2', '2'], ['Apartment 2', '2'], ['FLAT 2A', '2A'], ['flat 2 a', '2A'],
    ['GROUND FLOOR FLAT', 'GROUND FLOOR'], ['', ''], [undefined, ''],
    ['Flat, Ground Floor', 'GROUND FLOOR'], ['GRD FLR FLAT', 'GROUND FLOOR'], ['1st Floor Flat', 'FIRST FLOOR'], ['GROUND FLOOR', 'GROUND FLOOR'],
  ])('%j → %j', (input, out) => expect(unitKey(input)).toBe(out));
});

describe('isFloorUnit', () => {
  it.each([['GROUND FLOOR FLAT', true], ['FLAT FIRST FLOOR', true], ['TOP FLOOR', true], ['BASEMENT', true], ['GARDEN FLAT', true],
    ['FLAT', false], ['FIRST', false], ['GROUND FLOOR FLAT 2', false], ['GARDEN COTTAGE', false]] as const,
  )('%j → %j', (part, out) => expect(isFloorUnit(part)).toBe(out));
});

describe('numberTokens', () => {
  it('finds numbers, suffixed numbers and ranges', () => {
    expect(numberTokens('Flat 2, 32A High St')).toEqual(['2', '32A']);
    expect(numberTokens('12-14 Park Ave')).toEqual(['12-14']);
    expect(numberTokens('Rose Cottage')).toEqual([]);
  });
});
