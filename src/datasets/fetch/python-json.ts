/**
 * JSON written the way Python's `json.dumps` writes it, so that files assay derives are
 * byte-identical to the ones derived with Python (and their checksums match the manifest).
 * The two differ from `JSON.stringify` in float formatting (`1e-05`, `1.0`) and in escaping
 * every non-ASCII character (`ensure_ascii=True`).
 */

/**
 * Python's `repr(float)`: the shortest digits that round-trip (the same digits JavaScript picks),
 * in exponent form when the decimal exponent is below -4 or above 16, with at least two exponent
 * digits, and `.0` on integral values.
 */
export function pythonFloatRepr(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`cannot write ${x} as JSON`);
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(x);
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    // Both languages write this range in fixed notation with the same digits; Python adds `.0`.
    const fixed = String(x);
    return fixed.includes('.') ? fixed : `${fixed}.0`;
  }
  const sign = x < 0 ? '-' : '';
  const { digits, pointAt } = shortestDigits(magnitude);
  // `pointAt` is where the decimal point goes relative to the digits: value = 0.DIGITS × 10^pointAt.
  if (pointAt > -4 && pointAt <= 16) {
    if (pointAt <= 0) return `${sign}0.${'0'.repeat(-pointAt)}${digits}`;
    if (pointAt >= digits.length) return `${sign}${digits}${'0'.repeat(pointAt - digits.length)}.0`;
    return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
  }
  const exponent = pointAt - 1;
  const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  const expSign = exponent < 0 ? '-' : '+';
  return `${sign}${mantissa}e${expSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/**
 * The shortest round-trip digits of a positive finite number, read from `String(x)` because
 * `Number#toString` is specified to pick the closest candidate when several are equally short,
 * as Python's repr does.
 */
function shortestDigits(x: number): { digits: string; pointAt: number } {
  const text = String(x);
  const [mantissa = '', exp = '0'] = text.split('e');
  const dot = mantissa.indexOf('.');
  const intPart = dot === -1 ? mantissa : mantissa.slice(0, dot);
  const fracPart = dot === -1 ? '' : mantissa.slice(dot + 1);
  let digits = intPart + fracPart;
  let pointAt = intPart.length + Number(exp);
  const leadingZeros = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(leadingZeros);
  pointAt -= leadingZeros;
  digits = digits.replace(/0+$/, '');
  return { digits, pointAt };
}

/** A JSON string literal as Python writes it with `ensure_ascii=True`. */
export function pythonJsonString(text: string): string {
  // JSON.stringify already escapes `"`, `\`, control characters and lone surrogates the same way.
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
