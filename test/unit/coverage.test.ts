import { describe, expect, it } from 'vitest';
import { countryOfAreaCode, notCoveredReason, strCoverage } from '../../service/domain/coverage.ts';
import { PointCountry } from '../../service/location/point-country.ts';

describe('notCoveredReason', () => {
  it('Price Paid: Scotland is not covered, England and Wales are, a border area with one covered country is', () => {
    expect(notCoveredReason('price_paid', ['Scotland'])).toMatch(/^Scottish sale prices are not open data .*HM Land Registry Price Paid covers England and Wales only\)$/);
    expect(notCoveredReason('price_paid', ['Wales'])).toBeNull();
    expect(notCoveredReason('price_paid', ['England'])).toBeNull();
    expect(notCoveredReason('price_paid', ['England', 'Scotland'])).toBeNull();
  });
  it('GIAS covers England only; a place of unknown country is not refused', () => {
    expect(notCoveredReason('gias', ['Wales'])).toMatch(/GIAS .* covers schools in England only/);
    expect(notCoveredReason('gias', ['Scotland'])).toMatch(/GIAS/);
    expect(notCoveredReason('gias', ['England'])).toBeNull();
    expect(notCoveredReason('gias', [])).toBeNull();
  });
  it('short-term lets cover the countries the build\'s listings lie in', () => {
    const c = strCoverage(['Scotland', null, 'England', 'Scotland']);
    expect(c.countries).toEqual(['England', 'Scotland']);
    expect(notCoveredReason(c, ['Wales'])).toBe('the short-term-let listings (Inside Airbnb\'s city scrapes) of this build cover England, Scotland only');
    expect(notCoveredReason(c, ['Scotland'])).toBeNull();
    expect(notCoveredReason(strCoverage([]), ['England'])).toBe('this build has no short-term-let listings (Inside Airbnb\'s city scrapes)');
  });
});

describe('countryOfAreaCode', () => {
  it('reads the GSS code\'s first letter', () => {
    expect(['E06000023', 'W06000015', 'S12000036', 'N09000003', 'X1'].map(countryOfAreaCode)).toEqual(['England', 'Wales', 'Scotland', 'Northern Ireland', null]);
  });
});

describe('PointCountry.fromPostcodes', () => {
  const pc = PointCountry.fromPostcodes([
    { postcode: 'TD15 1AA', lat: 55.77, lng: -2.0, country: 'England' },
    { postcode: 'TD15 1AB', lat: null, lng: null, country: 'Scotland' },
    { postcode: 'EH9 1UH', lat: 55.933, lng: -3.185, country: 'Scotland' },
  ]);
  it('gives a postcode, sector and outcode the countries of its postcodes, unplaced ones included', () => {
    expect(pc.ofArea('TD15')).toEqual(['England', 'Scotland']);
    expect(pc.ofArea('TD15 1')).toEqual(['England', 'Scotland']);
    expect(pc.ofArea('EH9 1UH')).toEqual(['Scotland']);
    expect(pc.ofArea('ZE3')).toEqual([]);
  });
  it('places a point by the nearest postcode with a position only', () => {
    expect(pc.at(55.933, -3.186)?.country).toBe('Scotland');
    expect(pc.at(55.7701, -2.0)?.country).toBe('England');
    expect(pc.at(51.0, 0.0)).toBeNull();
  });
});
