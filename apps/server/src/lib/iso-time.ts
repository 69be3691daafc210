const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => `${n}`.padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => `${n}`.padStart(3, '0'));
/** Days since 1970 to their `YYYY-MM-DD`: a list holds few distinct days. */
const dayNames = new Map<number, string>();
const DAYS_KEPT = 4096;

function dayName(days: number): string {
  let name = dayNames.get(days);
  if (name !== undefined) return name;
  // Howard Hinnant's civil_from_days: days since 1970-01-01 to year, month, day.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  name = `${`${year}`.padStart(4, '0')}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}`;
  if (dayNames.size >= DAYS_KEPT) dayNames.clear();
  dayNames.set(days, name);
  return name;
}

/**
 * `date.toISOString()`, the same string, computed in plain arithmetic: V8's own takes about a
 * microsecond (a call into its C++ date cache), and the current user and every listed
 * configuration carry two or three. Years outside 0000–9999 and invalid dates go to
 * `toISOString` itself (its six-digit years, its RangeError).
 */
export function isoTime(date: Date): string {
  const ms = date.getTime();
  // 0000-01-01 and 9999-12-31T23:59:59.999Z
  if (!(ms >= -62_167_219_200_000 && ms <= 253_402_300_799_999)) return date.toISOString();
  const days = Math.floor(ms / DAY_MS);
  const inDay = ms - days * DAY_MS;
  const hours = Math.floor(inDay / 3_600_000);
  const minutes = Math.floor((inDay % 3_600_000) / 60_000);
  const seconds = Math.floor((inDay % 60_000) / 1000);
  return `${dayName(days)}T${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[inDay % 1000]}Z`;
}
