/**
 * Exact decimal arithmetic on the API's money and rate strings ("26.00", "36.5012"), with
 * BigInt: money is never a float here. Used for the local subtotal and the converted total.
 */
export interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

export function parseDecimal(value: string): Decimal {
  const match = DECIMAL.exec(value.trim());
  if (!match) throw new Error(`not a decimal: ${value}`);
  const [, sign, whole = "0", fraction = ""] = match;
  const units = BigInt(`${whole}${fraction}`);
  return { units: sign ? -units : units, scale: fraction.length };
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** Rounds half away from zero to `digits` decimals. */
export function round(value: Decimal, digits: number): Decimal {
  if (value.scale <= digits) {
    return { units: value.units * 10n ** BigInt(digits - value.scale), scale: digits };
  }
  const divisor = 10n ** BigInt(value.scale - digits);
  const negative = value.units < 0n;
  const abs = negative ? -value.units : value.units;
  let quotient = abs / divisor;
  if ((abs % divisor) * 2n >= divisor) quotient += 1n;
  return { units: negative ? -quotient : quotient, scale: digits };
}

export function toDecimalString(value: Decimal): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, "0");
  const whole = value.scale ? digits.slice(0, -value.scale) : digits;
  const fraction = value.scale ? `.${digits.slice(-value.scale)}` : "";
  return `${negative ? "-" : ""}${whole}${fraction}`;
}

/** price × count as a two-decimal string: "13.00" × 3 = "39.00". */
export function timesCount(price: string, count: number): string {
  return toDecimalString(round(multiply(parseDecimal(price), { units: BigInt(count), scale: 0 }), 2));
}

/** amount × rate rounded to `digits` decimals, as a string. */
export function convert(amount: string, rate: string, digits: number): string {
  return toDecimalString(round(multiply(parseDecimal(amount), parseDecimal(rate)), digits));
}

export function isZero(value: string): boolean {
  try {
    return parseDecimal(value).units === 0n;
  } catch {
    return true;
  }
}
