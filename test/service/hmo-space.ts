/**
 * The licensed HMOs' floor area per household, computed for tests independently of
 * service/store/sql/hmo_space_per_room.sql: raw licence rows, one per home chosen in
 * JavaScript, and a linear-interpolation quantile (DuckDB's quantile_cont definition).
 */
export async function licensedSpace(db: { q: (sql: string) => Promise<Record<string, unknown>[]> }): Promise<number[]> {
  const rows = await db.q(`SELECT h.uprn::VARCHAR AS uprn, h.households, h.valid_from::VARCHAR AS valid_from, h.licence_reference, p.floor_area_sqft
                           FROM hmo_licences h, properties p WHERE p.uprn = h.uprn`);
  // The later-starting licence (a missing start counts as earliest), then the smaller reference.
  const later = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    String(a.valid_from ?? '') > String(b.valid_from ?? '') ||
    (String(a.valid_from ?? '') === String(b.valid_from ?? '') && String(a.licence_reference) < String(b.licence_reference));
  const latest = new Map<string, Record<string, unknown>>();
  for (const r of rows) {
    if (!(Number(r.households) > 0) || !(Number(r.floor_area_sqft) > 0)) continue;
    const seen = latest.get(String(r.uprn));
    if (!seen || later(r, seen)) latest.set(String(r.uprn), r);
  }
  return [...latest.values()].map((r) => Number(r.floor_area_sqft) / Number(r.households));
}

export function quantile(values: readonly number[], q: number): number {
  const v = [...values].sort((a, b) => a - b);
  const h = (v.length - 1) * q;
  const lo = Math.floor(h);
  return lo + 1 < v.length ? v[lo]! + (h - lo) * (v[lo + 1]! - v[lo]!) : v[lo]!;
}
