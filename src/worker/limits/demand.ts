/**
 * An isolate's recent request rate for one subject: an exponentially decaying count of requests
 * (half-life HALF_LIFE_MS). For a steady rate λ the count settles at λ·H/ln 2, so count·ln 2/H
 * estimates λ and follows a change within about one half-life. One number and a timestamp.
 */
const HALF_LIFE_MS = 250;

export class DemandMeter {
  #count = 0;
  #at = 0;

  record(now: number): void {
    this.#count = this.#decayed(now) + 1;
    this.#at = now;
  }

  /** Requests per millisecond. */
  rate(now: number): number {
    return (this.#decayed(now) * Math.LN2) / HALF_LIFE_MS;
  }

  #decayed(now: number): number {
    return this.#count * 2 ** (-Math.max(0, now - this.#at) / HALF_LIFE_MS);
  }
}
