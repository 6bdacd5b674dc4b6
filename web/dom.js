// dom.js — building the page without innerHTML: every name, chat line and
// other piece of user data goes in as a text node.

const SVG_NS = 'http://www.w3.org/2000/svg'

function fill(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v)
    else if (k === 'text') node.textContent = String(v)
    else if (k === 'value' && 'value' in node) node.value = v
    else if (k === 'checked' && node.type === 'checkbox') node.checked = !!v
    else node.setAttribute(k, v === true ? '' : String(v))
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue
    node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)))
  }
  return node
}

// el('button', {id: 'pass', onclick: f}, 'Pass')
export function el(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children)
}

export function svg(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children)
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild)
  return node
}

export function replace(node, ...children) {
  clear(node)
  return fill(node, {}, children)
}

export const $ = (sel, root = document) => root.querySelector(sel)
