// Word-level alignment of two token lists: the pairs of positions a longest common subsequence
// matches, found with Myers' O(ND) algorithm so a long transcript with a few edits stays cheap.
// Only the V-array range each step reads is kept, so memory grows with D², not D·(N+M).

/** Matched [indexInA, indexInB] pairs in order, or null when more than `maxEdits` edits apart. */
export function matchedPairs(a: readonly string[], b: readonly string[], maxEdits = 4000): [number, number][] | null {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix += 1;
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const middle = myers(midA, midB, maxEdits);
  if (!middle) return null;
  const pairs: [number, number][] = [];
  for (let i = 0; i < prefix; i += 1) pairs.push([i, i]);
  for (const [x, y] of middle) pairs.push([x + prefix, y + prefix]);
  for (let i = suffix; i > 0; i -= 1) pairs.push([a.length - i, b.length - i]);
  return pairs;
}

function myers(a: readonly string[], b: readonly string[], maxEdits: number): [number, number][] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d += 1) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], n: number, m: number): [number, number][] {
  const pairs: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d -= 1) {
    const saved = trace[d];
    const at = (k: number) => saved[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      x -= 1;
      y -= 1;
      pairs.push([x, y]);
    }
    x = prevX;
    y = prevY;
  }
  return pairs.reverse();
}
