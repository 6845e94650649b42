// What the page's ES modules share: $ (an element by id) and element (a new one, with
// attributes and its text set as text, never as HTML).
export const $ = (id) => document.getElementById(id);

export function element(tag, attributes, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
