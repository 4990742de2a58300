/**
 * A regularised repeat-sales index (Case–Shiller without interval weights), solved per area.
 *
 * Pairs of sales of the same home give y = log(p2 / p1) ≈ b[t2] − b[t1] + noise, where b is
 * the area's log price level by month. An area's level is its parent's plus a deviation d,
 * and d minimises
 *
 *   Σ_pairs (y − (P[t2] − P[t1]) − (d[t2] − d[t1]))²  +  smooth · Σ_t (d[t+1] − d[t])²  +  shrink · Σ_t d[t]²
 *     + curvature · Σ_t (d[t−1] − 2 d[t] + d[t+1])²
 *
 * so a thin area stays close to its parent (shrink) and a month without sales borrows from
 * its neighbours (smooth). The top level has no parent (P = 0) and a negligible shrink.
 * Pairs are aggregated into cells (t1, t2) → (count, Σy): the normal equations depend only
 * on those, so the cost per iteration is the number of distinct cells, at most T²/2.
 */

/** Sales pairs of one area with the same first and second month: count and summed log ratio. */
export interface PairCell {
  t1: number;
  t2: number;
  n: number;
  sumY: number;
}

export interface IndexPenalty {
  /** Weight on squared month-to-month changes of the deviation (≈ pair noise variance ÷ step variance). */
  smooth: number;
  /** Weight on the squared deviation from the parent (≈ pair noise variance ÷ deviation variance). */
  shrink: number;
  /**
   * Weight on squared second differences (d[t−1] − 2d[t] + d[t+1]): favours a steady trend,
   * so the last months continue the recent slope instead of lagging it. Default 0.
   */
  curvature?: number;
}

/**
 * The log level of one area over months 0…T−1: parent + the penalised least-squares
 * deviation, solved by Jacobi-preconditioned conjugate gradients (the system is symmetric
 * positive definite when shrink > 0). Cells outside 0…T−1 or with t1 = t2 are ignored.
 */
export function solveAreaLevel(T: number, cells: readonly PairCell[], parent: Float64Array | undefined, pen: IndexPenalty): Float64Array {
  if (T <= 0) return new Float64Array(0);
  if (!(pen.shrink > 0) || !(pen.smooth >= 0)) throw new Error('index penalty needs shrink > 0 and smooth ≥ 0');
  if (parent && parent.length !== T) throw new Error(`parent series has ${parent.length} months, expected ${T}`);
  // In (t1, t2) order whatever order the cells come in: floating-point sums depend on their
  // order, so the solve is the same whether cells arrive streamed (sorted) or from a map.
  const used = cells.filter((c) => c.t1 !== c.t2 && c.n > 0 && c.t1 >= 0 && c.t2 >= 0 && c.t1 < T && c.t2 < T).sort((a, b) => a.t1 - b.t1 || a.t2 - b.t2);
  // Right-hand side X'(y − parent change) and the diagonal of the normal matrix.
  const rhs = new Float64Array(T);
  const diag = new Float64Array(T).fill(pen.shrink);
  const curv = pen.curvature ?? 0;
  for (let t = 0; t < T; t++) diag[t]! += pen.smooth * ((t > 0 ? 1 : 0) + (t < T - 1 ? 1 : 0));
  for (let t = 1; t < T - 1; t++) {
    diag[t - 1]! += curv;
    diag[t]! += 4 * curv;
    diag[t + 1]! += curv;
  }
  for (const c of used) {
    const r = c.sumY - c.n * (parent ? parent[c.t2]! - parent[c.t1]! : 0);
    rhs[c.t2]! += r;
    rhs[c.t1]! -= r;
    diag[c.t2]! += c.n;
    diag[c.t1]! += c.n;
  }
  const multiply = (x: Float64Array, out: Float64Array) => {
    for (let t = 0; t < T; t++) {
      let v = pen.shrink * x[t]!;
      if (t > 0) v += pen.smooth * (x[t]! - x[t - 1]!);
      if (t < T - 1) v += pen.smooth * (x[t]! - x[t + 1]!);
      out[t] = v;
    }
    for (let t = 1; t < T - 1 && curv > 0; t++) {
      const k = curv * (x[t - 1]! - 2 * x[t]! + x[t + 1]!);
      out[t - 1]! += k;
      out[t]! -= 2 * k;
      out[t + 1]! += k;
    }
    for (const c of used) {
      const r = c.n * (x[c.t2]! - x[c.t1]!);
      out[c.t2]! += r;
      out[c.t1]! -= r;
    }
  };
  const d = conjugateGradient(T, multiply, rhs, diag);
  if (parent) for (let t = 0; t < T; t++) d[t]! += parent[t]!;
  return d;
}

function conjugateGradient(T: number, multiply: (x: Float64Array, out: Float64Array) => void, b: Float64Array, diag: Float64Array): Float64Array {
  const x = new Float64Array(T);
  const r = Float64Array.from(b);
  const z = new Float64Array(T);
  const p = new Float64Array(T);
  const ap = new Float64Array(T);
  for (let t = 0; t < T; t++) z[t] = r[t]! / diag[t]!;
  p.set(z);
  let rz = dot(r, z);
  // Relative residual 1e-7: far below the index's statistical error.
  const stop = 1e-14 * Math.max(dot(b, b), 1e-300);
  for (let it = 0; it < 20 * T + 100 && dot(r, r) > stop; it++) {
    multiply(p, ap);
    const alpha = rz / dot(p, ap);
    for (let t = 0; t < T; t++) {
      x[t]! += alpha * p[t]!;
      r[t]! -= alpha * ap[t]!;
      z[t] = r[t]! / diag[t]!;
    }
    const next = dot(r, z);
    const beta = next / rz;
    rz = next;
    for (let t = 0; t < T; t++) p[t] = z[t]! + beta * p[t]!;
  }
  return x;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Index values (base = 100 at month `base`) from a log level series. */
export function toIndex(level: Float64Array, base: number): Float64Array {
  const ref = level[base] ?? 0;
  return level.map((v) => 100 * Math.exp(v - ref));
}
