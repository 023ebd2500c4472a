// The Type 340's P7 phosphor on a canvas: the picture pdp6/render.py's render() draws
// (method "splat"), from the points the machine drew, at the machine's present time.
//
// Each point gives a blue-white flash (all of it, if drawn within the exposure) and a
// yellow-green afterglow decaying as (1 + age/tau)^-n, integrated over the exposure in
// closed form; energies are summed on pixels, spread by the beam spot's kernel and
// tone-mapped with 1 - exp(-gain * energy).  The constants come from the server
// (pdp6.web.console.phosphor_settings), so both renderers use the same numbers.

export class Phosphor {
  constructor(canvas, settings) {
    this.s = settings;
    this.size = settings.size;
    this.canvas = canvas;
    canvas.width = canvas.height = this.size;
    this.ctx = canvas.getContext("2d");
    this.image = this.ctx.createImageData(this.size, this.size);
    this.pixels = new Uint32Array(this.image.data.buffer);
    const n = this.size * this.size;
    this.onPixel = [new Float64Array(n), new Float64Array(n)]; // flash, glow per pixel
    this.spread = [new Float64Array(n), new Float64Array(n)]; // after the beam spot
    this.mark = new Uint8Array(n);
    this.markOut = new Uint8Array(n);
    this.lit = new Int32Array(1024);
    this.litOut = new Int32Array(1024);
    const k = settings.kernel;
    this.radius = (k.length - 1) / 2;
    const peak = Math.max(...k) ** 2;
    this.kernel2 = k.flatMap((a) => k.map((b) => (a * b) / peak));
    this.levels = Array.from({ length: 8 }, (_, l) => 2 ** ((l - 7) / 2));
    this.cap = 0;
    this.count = 0;
    this.grow(1 << 16);
    this.now = 0; // the emulated time (ns) of the newest points
    this.drawnAt = -1;
  }

  grow(cap) {
    const keep = (Cls, old) => {
      const a = new Cls(cap);
      if (old) a.set(old.subarray(0, this.count));
      return a;
    };
    this.t = keep(Float64Array, this.t);
    this.l = keep(Uint8Array, this.l);
    this.p = keep(Int32Array, this.p); // each point's pixel, worked out once
    this.cap = cap;
  }

  // One binary message of the server's (pdp6.web.console.encode_points).
  add(buffer) {
    const head = new Float64Array(buffer, 0, 2);
    const upto = head[0];
    const n = head[1];
    this.forget(upto - this.s.max_age_ns);
    if (this.count + n > this.cap) this.grow(Math.max(this.cap * 2, this.count + n));
    let at = 16;
    const ages = new Uint32Array(buffer, at, n);
    at += 4 * n;
    const xs = new Uint16Array(buffer, at, n);
    at += 2 * n;
    const ys = new Uint16Array(buffer, at, n);
    at += 2 * n;
    this.l.set(new Uint8Array(buffer, at, n), this.count);
    const size = this.size;
    const scale = size / this.s.raster;
    for (let i = 0; i < n; i++) {
      this.t[this.count + i] = upto - ages[i];
      const col = Math.trunc(Math.min((xs[i] + 0.5) * scale, size - 1));
      const row = size - 1 - Math.trunc(Math.min((ys[i] + 0.5) * scale, size - 1));
      this.p[this.count + i] = row * size + col;
    }
    this.count += n;
    this.now = Math.max(this.now, upto);
  }

  // Drop the points older than `before` (dark by then).
  forget(before) {
    const drop = this.firstAtOrAfter(before);
    if (drop === 0) return;
    for (const a of [this.t, this.l, this.p]) a.copyWithin(0, drop, this.count);
    this.count -= drop;
  }

  firstAtOrAfter(t) {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.t[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // The screen at emulated time `at` (by default the newest), as render() draws it.
  draw(at = this.now) {
    const s = this.s;
    const [flash0, glow0] = this.onPixel;
    const exposure = s.exposure_ns;
    const tau = s.glow_tau_ns;
    const k = 1 - s.glow_power;
    // (1 + age/tau)^k; for the P7's n = 1.5 a square root, several times quicker
    const decay = k === -0.5 ? (a) => 1 / Math.sqrt(1 + a / tau) : (a) => (1 + a / tau) ** k;
    let lit = 0;
    const lo = this.firstAtOrAfter(at - s.max_age_ns);
    for (let i = lo; i < this.count && this.t[i] <= at; i++) {
      const age1 = at - this.t[i];
      const age0 = Math.max(0, age1 - exposure);
      const lvl = this.levels[this.l[i]];
      const fw = (age1 <= exposure ? s.flash_energy : 0) * lvl;
      const gw = s.glow_energy * (decay(age0) - decay(age1)) * lvl;
      const p = this.p[i];
      if (!this.mark[p]) {
        this.mark[p] = 1;
        if (lit === this.lit.length) this.lit = growInt(this.lit);
        this.lit[lit++] = p;
      }
      flash0[p] += fw;
      glow0[p] += gw;
    }
    this.spreadSpots(lit);
    this.drawnAt = at;
  }

  // The beam spot around each lit pixel, the tone map, and the canvas.
  spreadSpots(lit) {
    const size = this.size;
    const r = this.radius;
    const [flash0, glow0] = this.onPixel;
    const [flash, glow] = this.spread;
    let out = 0;
    for (let j = 0; j < lit; j++) {
      const p = this.lit[j];
      const row = Math.trunc(p / size);
      const col = p - row * size;
      const f = flash0[p];
      const g = glow0[p];
      flash0[p] = glow0[p] = 0;
      this.mark[p] = 0;
      for (let dy = -r; dy <= r; dy++) {
        const rr = row + dy;
        if (rr < 0 || rr >= size) continue;
        for (let dx = -r; dx <= r; dx++) {
          const cc = col + dx;
          if (cc < 0 || cc >= size) continue;
          const w = this.kernel2[(dy + r) * (2 * r + 1) + dx + r];
          const o = rr * size + cc;
          if (!this.markOut[o]) {
            this.markOut[o] = 1;
            if (out === this.litOut.length) this.litOut = growInt(this.litOut);
            this.litOut[out++] = o;
          }
          flash[o] += f * w;
          glow[o] += g * w;
        }
      }
    }
    const s = this.s;
    this.pixels.fill(0xff000000); // black, opaque
    const tone = (e) => Math.min(255, Math.max(0, Math.round((1 - Math.exp(-s.gain * e)) * 255)));
    for (let j = 0; j < out; j++) {
      const o = this.litOut[j];
      const f = flash[o];
      const g = glow[o];
      flash[o] = glow[o] = 0;
      this.markOut[o] = 0;
      if (f <= 0 && g <= 0) continue;
      const red = tone(f * s.flash_rgb[0] + g * s.glow_rgb[0]);
      const green = tone(f * s.flash_rgb[1] + g * s.glow_rgb[1]);
      const blue = tone(f * s.flash_rgb[2] + g * s.glow_rgb[2]);
      this.pixels[o] = 0xff000000 | (blue << 16) | (green << 8) | red; // RGBA, little-endian
    }
    this.ctx.putImageData(this.image, 0, 0);
  }
}

function growInt(a) {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
