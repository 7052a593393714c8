// PLACEHOLDER: "copy as code". Its owner replaces this file.

/** The code that reproduces the view. */
export function snippet(state) {
  return `// ${state.defs.length} tools\n`;
}
