// Building the page from state: elements whose text is always text (textContent, never
// markup), so a name or a chat line a peer chose can never become part of the page.

const SVG = "http://www.w3.org/2000/svg";

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function apply(node, props) {
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", Array.isArray(value) ? value.flat(Infinity).filter(Boolean).join(" ") : value);
    else if (key === "text") node.textContent = String(value);
    else if (key === "on") for (const [type, handler] of Object.entries(value)) node.addEventListener(type, handler);
    else if (key === "data") for (const [name, v] of Object.entries(value)) node.dataset[name] = String(v);
    else if (key === "vars") for (const [name, v] of Object.entries(value)) node.style.setProperty(`--${name}`, String(v));
    else node.setAttribute(key, value === true ? "" : String(value));
  }
}

/** An HTML element: `el("button", {class: "x", on: {click}}, "text", child)`. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  apply(node, props);
  append(node, children);
  return node;
}

/** An SVG element, the same way. */
export function svg(tag, props = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  apply(node, props);
  append(node, children);
  return node;
}

/** Put `children` in place of what `node` holds. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** The element of the page with this id. */
export const byId = (id) => document.getElementById(id);
