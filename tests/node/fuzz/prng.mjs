// A seeded PRNG (mulberry32) and the choices the generators make with it. Every case is drawn
// from its own stream, caseSeed(seed, index), so one case replays without the ones before it.

/** mulberry32: a 32-bit state, a float in [0, 1) per step. */
function mulberry32(state) {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of case `index` of a run seeded `seed` (both 32-bit integers). */
export function caseSeed(seed, index) {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (index >>> 0) ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The choices a generator makes, all from one mulberry32 stream. */
export class Rng {
  constructor(seed) {
    this.next = mulberry32(seed);
  }
  /** An integer in [lo, hi]. */
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  /** True with probability p. */
  chance(p) {
    return this.next() < p;
  }
  /** One element of a non-empty array. */
  pick(list) {
    return list[Math.floor(this.next() * list.length)];
  }
  /** One value of [[weight, value], …], by weight. A function value is called with this Rng. */
  weighted(entries) {
    const total = entries.reduce((s, [w]) => s + w, 0);
    let x = this.next() * total;
    for (const [w, v] of entries) {
      x -= w;
      if (x < 0) return typeof v === "function" ? v(this) : v;
    }
    const last = entries[entries.length - 1][1];
    return typeof last === "function" ? last(this) : last;
  }
  /** Up to `max` distinct elements of list, in list order. */
  subset(list, max = list.length) {
    const out = list.filter(() => this.chance(0.5));
    while (out.length > max) out.splice(this.int(0, out.length - 1), 1);
    return out;
  }
  /** n values made by gen(this, i). */
  times(n, gen) {
    return Array.from({ length: n }, (_, i) => gen(this, i));
  }
}

/** A fresh 32-bit seed for a fuzz-mode run (not reproducible by design; it is printed). */
export function randomSeed() {
  return (Math.random() * 2 ** 32) >>> 0;
}
