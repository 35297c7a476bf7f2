import { z } from "zod";

// Integers that arrive as text (query parameters, form fields). z.coerce.number() took "" as 0,
// "0x10" as 16, "1e3" as 1000 and " 7 " as 7: a client's bug passed as a number it never meant.
// Only decimal digits (with a minus sign) are a number here; the range check follows as usual.

const DIGITS = /^-?\d+$/;

/** An integer written in decimal digits, checked by `check` (e.g. `(n) => n.min(1).max(100)`). */
export function integerText(check: (n: z.ZodNumber) => z.ZodNumber = (n) => n) {
  return z
    .string()
    .regex(DIGITS, "must be a whole number written in decimal digits")
    .transform(Number)
    .pipe(check(z.number().int()));
}

const DECIMAL = /^\d+(\.\d+)?$/;

/** A number of zero or more written in decimal digits with an optional fraction ("12", "12.5"), checked by `check`. */
export function decimalText(check: (n: z.ZodNumber) => z.ZodNumber = (n) => n) {
  return z
    .string()
    .regex(DECIMAL, "must be a number written in decimal digits, such as 12 or 12.5")
    .transform(Number)
    .pipe(check(z.number()));
}
