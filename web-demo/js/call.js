// PLACEHOLDER: the call panel. Its owner replaces this file.

/** Builds the panel inside its section. */
export function mount(section) {
  section.append(Object.assign(document.createElement("p"), { className: "hint", textContent: "Coming." }));
}
