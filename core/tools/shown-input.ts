/** How an error message shows a rejected input: short inputs quoted, long ones only by length (a pasted secret must not come back). */
export function shownInput(value: string): string {
  return value.length <= 40 ? JSON.stringify(value) : `${value.length} characters`;
}
