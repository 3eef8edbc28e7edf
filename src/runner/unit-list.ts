/**
 * The units a run's model still has to do, in order: each a sample's position and a repeat. Held
 * in two typed arrays rather than an object per unit, because the list lives as long as the run:
 * at 100,000 units the objects and their array held 5.1 MB of heap for the whole run (measured
 * after a full GC; each one scanned by every GC that reached old space), the arrays 0.8 MB off it.
 */
export class UnitList {
  private readonly positions: Int32Array;
  private readonly repeats: Int32Array;
  private count = 0;

  /** `capacity`: the most units it will hold (the run's samples × repeats). */
  constructor(capacity: number) {
    this.positions = new Int32Array(capacity);
    this.repeats = new Int32Array(capacity);
  }

  get length(): number {
    return this.count;
  }

  push(position: number, repeat: number): void {
    if (this.count === this.positions.length) throw new RangeError(`a unit list of ${this.positions.length} units is full`);
    this.positions[this.count] = position;
    this.repeats[this.count] = repeat;
    this.count++;
  }

  positionAt(index: number): number {
    return this.at(this.positions, index);
  }

  repeatAt(index: number): number {
    return this.at(this.repeats, index);
  }

  private at(values: Int32Array, index: number): number {
    if (!(index >= 0 && index < this.count)) throw new RangeError(`unit ${index} of a list of ${this.count}`);
    return values[index] as number;
  }
}
