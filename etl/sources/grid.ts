import proj4 from 'proj4';

/**
 * OSGB36 / British National Grid (EPSG:27700) with the OS 7-parameter Helmert shift to WGS84.
 * The Helmert shift is OS's published approximation of OSTN15: good to a few metres across
 * Great Britain, worse in the far north and west than in the south. Not valid for Northern
 * Ireland (Irish Grid) or the Channel Islands.
 */
const BNG =
  '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy ' +
  '+towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489 +units=m +no_defs';
const WGS84 = '+proj=longlat +datum=WGS84 +no_defs';

// Built once: proj4(from, to) parses both definitions, too slow to repeat per row.
const converter = proj4(BNG, WGS84);

/** British National Grid easting/northing (metres) to WGS84 latitude/longitude (degrees). */
export function bngToWgs84(easting: number, northing: number): { lat: number; lng: number } {
  if (!Number.isFinite(easting) || !Number.isFinite(northing)) {
    throw new RangeError(`bngToWgs84: easting and northing must be finite numbers, got ${easting}, ${northing}`);
  }
  const [lng, lat] = converter.forward([easting, northing]) as [number, number];
  // Far outside the grid the projection has no answer and proj4 returns NaN.
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) {
    throw new RangeError(`bngToWgs84: ${easting}, ${northing} has no position on the National Grid`);
  }
  return { lat, lng };
}

/** WGS84 latitude/longitude (degrees) to British National Grid easting/northing (metres). */
export function wgs84ToBng(lat: number, lng: number): { easting: number; northing: number } {
  if (!(Math.abs(lat) <= 90) || !(Math.abs(lng) <= 180)) {
    throw new RangeError(`wgs84ToBng: latitude must be in [-90, 90] and longitude in [-180, 180], got ${lat}, ${lng}`);
  }
  const [easting, northing] = converter.inverse([lng, lat]) as [number, number];
  if (!Number.isFinite(easting) || !Number.isFinite(northing)) {
    throw new RangeError(`wgs84ToBng: ${lat}, ${lng} has no position on the National Grid`);
  }
  return { easting, northing };
}
