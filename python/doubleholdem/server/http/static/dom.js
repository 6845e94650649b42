// What the page's ES modules share: $ (an element by id) and element (a new one, with
// attributes, and children: elements, or strings put in as text, never as HTML).
export const $ = (id) => document.getElementById(id);

export function element(tag, attributes, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes || {})) e.setAttribute(k, v);
  e.append(...children);
  return e;
}
