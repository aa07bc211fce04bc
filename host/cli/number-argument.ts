/** A numeric flag's value: digits become a number; anything else goes to the config validation, which names the value. */
export function numberArgument(value: string): number | string {
  return /^\d+$/.test(value) ? Number(value) : value;
}
