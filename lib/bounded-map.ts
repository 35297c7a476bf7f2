/**
 * Sets `key` in a map of at most `max` entries kept in memory: when it is full, the stale entries
 * go first and, if that frees nothing, all of them (a process must not grow without bound
 * because many keys, addresses or ids came by).
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number, isStale: (value: V) => boolean): void {
  if (map.size >= max && !map.has(key)) {
    for (const [k, old] of map) if (isStale(old)) map.delete(k);
    if (map.size >= max) map.clear();
  }
  map.set(key, value);
}
