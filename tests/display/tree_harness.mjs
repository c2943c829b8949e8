// Runs toskit's TypeTree ES module against a minimal DOM and model, then
// prints what it drew and what a click did, as JSON (see test_type_tree_js.py).
import { readFileSync } from "node:fs";

class Element {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.children = [];
    this.listeners = {};
    this.textContent = "";
    this.className = "";
    this.open = false;
    const self = this;
    this.classList = {
      add: (c) => { self.className = (self.className + " " + c).trim(); },
      toggle: (c, on) => {
        const set = new Set(self.className.split(" ").filter(Boolean));
        if (on) set.add(c); else set.delete(c);
        self.className = [...set].join(" ");
      },
      contains: (c) => self.className.split(" ").includes(c),
    };
  }
  append(...nodes) { this.children.push(...nodes); }
  replaceChildren(...nodes) { this.children = [...nodes]; }
  addEventListener(name, fn) { this.listeners[name] = fn; }
  set innerHTML(_) { throw new Error("innerHTML must not be used"); }
}
globalThis.document = { createElement: (tag) => new Element(tag) };

const [modulePath, dataPath] = process.argv.slice(2);
const source = readFileSync(modulePath, "utf8");
const mod = await import("data:text/javascript;base64," + Buffer.from(source).toString("base64"));
const state = JSON.parse(readFileSync(dataPath, "utf8"));
const handlers = {};
let saves = 0;
const model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; (handlers["change:" + k] || []).forEach((f) => f()); },
  save_changes: () => { saves += 1; },
  on: (name, fn) => { (handlers[name] = handlers[name] || []).push(fn); },
  off: () => {},
};
const el = new Element("div");
mod.default.render({ model, el });

const buttons = [];
const walk = (node) => {
  if (node.tagName === "BUTTON") buttons.push(node);
  node.children.forEach(walk);
};
walk(el);
const names = buttons.map((b) => b.textContent);
const target = buttons.find((b) => b.textContent === state.click);
target.listeners.click({ preventDefault() {} });
const selectedButtons = buttons.filter((b) => b.classList.contains("toskit-selected")).map((b) => b.textContent);
const all = [];
const collect = (node) => { all.push(node); node.children.forEach(collect); };
collect(el);
const matches = all.filter((n) => n.tagName === "LI" && n.classList.contains("toskit-match")).length;
const search = all.find((n) => n.tagName === "INPUT");
search.value = state.type;
search.listeners.input({});

console.log(JSON.stringify({ names, selected: state.selected, saves, selectedButtons, matches, filter: state.filter }));
