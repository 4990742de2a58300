const PLAIN = /^[a-z_][a-z0-9_]*$/;

/**
 * Returns `name` if it is a plain lower-case SQL identifier, else throws: table and column
 * names are spliced into SQL text, so anything else (quotes, spaces, `;`) is refused.
 */
export function plainIdentifier(name: string): string {
  if (!PLAIN.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return name;
}
